// `npm run cluster` (tools/cluster.ts): two instances on one PostgreSQL database and one Redis,
// both ready, each passing the conformance runner (replay on SUBSCRIBE included), one process to
// stop them both. Skipped when PostgreSQL or Redis does not answer. Time limits only bound a hang.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../conformance/runner/runner.js';
import { loadSpecIndex } from '../../conformance/runner/specIndex.js';
import { freshPostgresDatabase, postgresForTests, type FreshPostgresDatabase } from '../support/postgres.js';
import { freshRedisSpace, redisForTests, type FreshRedisSpace } from '../support/redis.js';
import { lineOf, repoRoot, serviceEnv } from '../support/serviceProcess.js';

const HANG_LIMIT_MS = 60_000;
/** This file's Redis database, emptied before and after: a fresh PostgreSQL database numbers plans from 1 again, and a plan log left by an earlier run would stand in for the new plan's. */
const REDIS_DB = 14;

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
  let space: FreshRedisSpace | undefined;
  afterAll(async () => {
    await space?.client.flushdb();
    await space?.drop();
    await database?.drop();
  });

  it('starts two ready instances on one database and Redis, each passes conformance, and Ctrl-C stops both', async () => {
    database = await freshPostgresDatabase();
    space = await freshRedisSpace(REDIS_DB);
    await space.client.flushdb();
    const ports = [await freePort(), await freePort()];
    const redis = new URL(redisForTests.available ? redisForTests.url : 'redis://127.0.0.1:6379');
    const cluster = spawn(process.execPath, ['--import', 'tsx', 'tools/cluster.ts'], {
      cwd: repoRoot,
      // The rate limit is shared by both instances and counts the runner's requests to both.
      env: serviceEnv({
        CLUSTER_PORTS: ports.join(','),
        DATABASE_URL: database.url,
        REDIS_URL: `redis://${redis.host}/${REDIS_DB}`,
        LOG_LEVEL: 'info',
        RATE_LIMIT_PER_MINUTE: '1000000',
        // Passed on to both instances like any other setting: a generation streams its summaries in
        // well under a second instead of about four (40 ms a chunk by default), twice per instance.
        PLANNER_DELAY_MS: '5',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      expect(await lineOf(cluster, /^cluster: A /, HANG_LIMIT_MS)).toContain(`http://127.0.0.1:${ports[1]}`);
      for (const port of ports) {
        await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status, { timeout: HANG_LIMIT_MS, interval: 200 }).toBe(200);
      }
      const spec = loadSpecIndex(path.join(repoRoot, 'specs/openapi.yaml'), path.join(repoRoot, 'specs/asyncapi.yaml'));
      for (const port of ports) {
        const baseUrl = `http://127.0.0.1:${port}`;
        const options = {
          baseUrl,
          wsUrl: `ws://127.0.0.1:${port}/ws-stomp`,
          login: 'dev' as const,
          seed: 42,
          maxExamples: 3,
          timeoutMs: 5000,
          generationTimeoutMs: 15_000,
        };
        const result = await runConformance(spec, options, ['examples', 'stateful', 'async']);
        for (const report of result.reports) {
          expect(report.failures, `${baseUrl} ${report.phase}: ${JSON.stringify(report.failures.slice(0, 3), null, 1)}`).toEqual([]);
          expect(report.checks, `${baseUrl} ${report.phase}`).toBeGreaterThan(0);
        }
        expect(result.reports.find((r) => r.phase === 'async')?.tally, baseUrl).toHaveProperty('message_replay');
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
