// `npm run cluster` (scripts/cluster.ts): two instances on one PostgreSQL database and one Redis,
// both ready, one process to stop them both. Skipped when PostgreSQL or Redis does not answer.
// Time limits only bound a hang.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase, postgresForTests, type FreshPostgresDatabase } from '../support/postgres.js';
import { redisForTests } from '../support/redis.js';
import { lineOf, repoRoot, serviceEnv } from '../support/serviceProcess.js';

const HANG_LIMIT_MS = 60_000;

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.skipIf(!postgresForTests.available || !redisForTests.available)('npm run cluster', { timeout: 3 * HANG_LIMIT_MS }, () => {
  let database: FreshPostgresDatabase | undefined;
  afterAll(() => database?.drop());

  it('starts two ready instances on one database and Redis, and Ctrl-C stops both', async () => {
    database = await freshPostgresDatabase();
    const ports = [await freePort(), await freePort()];
    const redis = new URL(redisForTests.available ? redisForTests.url : 'redis://127.0.0.1:6379');
    const cluster = spawn(process.execPath, ['--import', 'tsx', 'scripts/cluster.ts'], {
      cwd: repoRoot,
      env: serviceEnv({ CLUSTER_PORTS: ports.join(','), DATABASE_URL: database.url, REDIS_URL: `redis://${redis.host}/14`, LOG_LEVEL: 'info' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      expect(await lineOf(cluster, /^cluster: A /, HANG_LIMIT_MS)).toContain(`http://127.0.0.1:${ports[1]}`);
      for (const port of ports) {
        await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status, { timeout: HANG_LIMIT_MS, interval: 200 }).toBe(200);
      }
      const exited = new Promise<number | null>((resolve) => cluster.once('exit', (code) => resolve(code)));
      cluster.kill('SIGINT');
      expect(await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('hung'), HANG_LIMIT_MS).unref())])).toBe(0);
      for (const port of ports) await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    } finally {
      cluster.kill('SIGKILL');
    }
  });
});
