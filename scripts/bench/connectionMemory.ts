// The memory row's measurement: idle STOMP connections on our server (production settings, one
// member holding them all) and on a bare `ws` server, one server at a time.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { startChildServer, type ChildServer } from './childServer.js';
import { freePort } from './freePort.js';
import { measureIdleConnections, type IdleConnections } from './idleConnections.js';
import { openFileLimit } from './openFileLimit.js';
import { seedServerDb } from './seedServerDb.js';

export async function measureConnectionMemory(opts: {
  root: string;
  dir: string;
  count: number;
  /** pause before each RSS reading, for the allocator and GC to settle */
  settleMs: number;
  started: (child: ChildServer) => void;
}): Promise<{ ours: IdleConnections; bareWs: IdleConnections }> {
  // Each connection is a descriptor here and one in the server (which inherits this limit).
  const limit = openFileLimit();
  if (limit !== null && limit < opts.count + 500)
    throw new Error(`the open-file limit is ${limit}; ${opts.count} connections need about ${opts.count + 500} (ulimit -n)`);
  const dataDir = path.join(opts.dir, 'connections');
  fs.mkdirSync(dataDir, { recursive: true });
  const env = {
    NODE_ENV: 'production',
    AUTH_DEV_LOGIN: 'false',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: path.join(dataDir, 'connections.sqlite'),
    JWT_SECRET: crypto.randomBytes(36).toString('base64url'),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '0',
    STOMP_MAX_CONNECTIONS_PER_USER: String(Math.min(10_000, Math.max(20, opts.count + 50))),
  };
  const seeded = await seedServerDb(loadConfig(env), 1);
  const connections = { token: seeded.accessToken, destination: `/user/sub/schedule/${seeded.tripPlanId}`, count: opts.count, settleMs: opts.settleMs };
  const measure = async (entry: string, serverEnv: Record<string, string>) => {
    const server = await startChildServer({ entry, cwd: opts.root, port: await freePort(), env: serverEnv, readyPath: '/readyz' });
    opts.started(server);
    try {
      return await measureIdleConnections(server, connections);
    } finally {
      await server.stop();
    }
  };
  const ours = await measure('src/main.ts', env);
  const bareWs = await measure('scripts/bench/bareWsServer.ts', {});
  return { ours, bareWs };
}
