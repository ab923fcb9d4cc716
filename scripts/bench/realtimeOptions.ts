// Command line of `npm run bench:realtime`.
import { parseArgs } from 'node:util';

export interface RealtimeOptions {
  levels: number[];
  generationConcurrency: number;
  levelTimeoutSeconds: number;
  batchSize: number;
}

export const realtimeUsage = `usage: npm run bench:realtime -- [--users 100,500,1000] [--concurrency 4] [--timeout 120] [--batch 50]
  --users        concurrent users per level (default 100,500,1000; BENCH_QUICK=1: 50,100)
  --concurrency  GENERATION_CONCURRENCY of the server (default 4)
  --timeout      seconds per level, setup included; what has not completed by then counts as lost (default 120)
  --batch        users that log in, or connect, at the same time during setup (default 50)`;

function positiveInteger(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, got "${raw}"\n${realtimeUsage}`);
  return value;
}

/** Returns null when --help was asked for. */
export function parseRealtimeOptions(argv: string[], env: NodeJS.ProcessEnv): RealtimeOptions | null {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      users: { type: 'string' },
      concurrency: { type: 'string', default: '4' },
      timeout: { type: 'string', default: '120' },
      batch: { type: 'string', default: '50' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return null;
  const users = values.users ?? (env.BENCH_QUICK === '1' ? '50,100' : '100,500,1000');
  return {
    levels: users.split(',').map((n) => positiveInteger('users', n.trim())),
    generationConcurrency: positiveInteger('concurrency', values.concurrency),
    levelTimeoutSeconds: positiveInteger('timeout', values.timeout),
    batchSize: positiveInteger('batch', values.batch),
  };
}
