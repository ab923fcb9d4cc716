// Command line of `npm run bench -- realtime`.
import { parseArgs } from 'node:util';
import { integerOption } from './integerOption.js';

export interface RealtimeOptions {
  levels: number[];
  /** 1: one embedded instance; 2: each level on one embedded instance, then on two instances (PostgreSQL + Redis) */
  instances: 1 | 2;
  /** `redis://host:port/n` of the two-instance run */
  redisUrl: string;
  generationConcurrency: number;
  levelTimeoutSeconds: number;
  batchSize: number;
}

export const realtimeUsage = `usage: npm run bench -- realtime [--users 100,500,1000] [--instances 1|2] [--redis-db 9] [--concurrency 4] [--timeout 120] [--batch 50]
  --users        concurrent users per level (default 100,500,1000, with --instances 2: 1000; BENCH_QUICK=1: 50,100)
  --instances    2: every level runs on one embedded instance (SQLite), then on two instances on a fresh
                 PostgreSQL database (BENCH_POSTGRES_URL's server, dropped afterwards) and one Redis database
                 (BENCH_REDIS_URL, default redis://127.0.0.1:6379): clients on A, generations on B (default 1)
  --redis-db     the Redis database number of --instances 2; it must be empty and is flushed afterwards (default 9)
  --concurrency  GENERATION_CONCURRENCY of the server (default 4)
  --timeout      seconds per level, setup included; what has not completed by then counts as lost (default 120)
  --batch        users that log in, or connect, at the same time during setup (default 50)`;

const positiveInteger = (name: string, raw: string, min = 1) => integerOption(name, raw, realtimeUsage, min);

/** Returns null when --help was asked for. */
export function parseRealtimeOptions(argv: string[], env: NodeJS.ProcessEnv): RealtimeOptions | null {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      users: { type: 'string' },
      instances: { type: 'string', default: '1' },
      'redis-db': { type: 'string', default: '9' },
      concurrency: { type: 'string', default: '4' },
      timeout: { type: 'string', default: '120' },
      batch: { type: 'string', default: '50' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return null;
  if (values.instances !== '1' && values.instances !== '2') throw new Error(`--instances must be 1 or 2, got "${values.instances}"\n${realtimeUsage}`);
  const instances = values.instances === '2' ? 2 : 1;
  const users = values.users ?? (env.BENCH_QUICK === '1' ? '50,100' : instances === 2 ? '1000' : '100,500,1000');
  const redisDb = Number(values['redis-db']);
  if (!Number.isInteger(redisDb) || redisDb < 0 || redisDb > 15) throw new Error(`--redis-db must be 0..15, got "${values['redis-db']}"\n${realtimeUsage}`);
  const redisUrl = new URL(env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379');
  redisUrl.pathname = `/${redisDb}`;
  return {
    levels: users.split(',').map((n) => positiveInteger('users', n.trim())),
    instances,
    redisUrl: redisUrl.toString(),
    generationConcurrency: positiveInteger('concurrency', values.concurrency),
    levelTimeoutSeconds: positiveInteger('timeout', values.timeout),
    batchSize: positiveInteger('batch', values.batch),
  };
}
