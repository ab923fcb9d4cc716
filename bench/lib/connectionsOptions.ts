// Command line of `npm run bench -- connections`.
import { parseArgs } from 'node:util';
import { integerOption } from './integerOption.js';

export interface ConnectionsOptions {
  connections: number;
  /** connections per member (STOMP_MAX_CONNECTIONS_PER_USER is set to it) */
  perMember: number;
  /** what each client offers in CONNECT's heart-beat, both ways (0: none) */
  heartBeatMs: number;
  /** seconds the connections stay idle while the server's CPU time is read */
  idleSeconds: number;
  batchSize: number;
  /** a git revision of this repository run side by side (its src/ on this checkout's node_modules) */
  baseline: string | null;
  json: boolean;
}

export const connectionsUsage = `usage: npm run bench -- connections [--connections 10000] [--per-member 20] [--heart-beat 10000] [--idle 10] [--batch 200] [--baseline <git rev>] [--json]
  --connections  idle STOMP connections to open, each CONNECTed with one subscription (default 1000; BENCH_QUICK=1: 200)
  --per-member   connections per member: members = connections / this, one plan each (default 20, the default STOMP_MAX_CONNECTIONS_PER_USER)
  --heart-beat   ms each client offers in CONNECT's heart-beat both ways; the server's default is 10000 (default 10000; 0: none)
  --idle         seconds the connections stay idle (heart-beats flowing) while the server's CPU time is read (default 10)
  --batch        connections opened at the same time (default 200)
  --baseline     also run the service at this git revision (e.g. main, a commit), side by side, on this checkout's node_modules
  --json         print the results as one JSON object instead of the table`;

const positiveInteger = (name: string, raw: string, min = 1) => integerOption(name, raw, connectionsUsage, min);

/** Returns null when --help was asked for. */
export function parseConnectionsOptions(argv: string[], env: NodeJS.ProcessEnv): ConnectionsOptions | null {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      connections: { type: 'string' },
      'per-member': { type: 'string', default: '20' },
      'heart-beat': { type: 'string', default: '10000' },
      idle: { type: 'string', default: '10' },
      batch: { type: 'string', default: '200' },
      baseline: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return null;
  return {
    connections: positiveInteger('connections', values.connections ?? (env.BENCH_QUICK === '1' ? '200' : '1000')),
    perMember: positiveInteger('per-member', values['per-member']),
    heartBeatMs: positiveInteger('heart-beat', values['heart-beat'], 0),
    idleSeconds: positiveInteger('idle', values.idle, 0),
    batchSize: positiveInteger('batch', values.batch),
    baseline: values.baseline ?? null,
    json: values.json,
  };
}
