// The failure series of GET /metrics move on real failures, not simulated ones: a write the SQLite
// storage refuses (the database at its size limit) is a query error while a handler's own refusal
// (404) is not; and with REDIS_URL, connections cut by a proxy in front of Redis are counted as
// reconnects per connection (on PostgreSQL, which REDIS_URL needs; with Redis answering).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { freshPostgresDatabase } from '../support/postgres.js';
import { scrape } from '../support/prometheusScrape.js';
import { freshRedisSpace, redisForTests } from '../support/redis.js';
import { capDatabaseSize, sqliteConnection } from '../support/storageFaults.js';
import { startTcpProxy, throughProxy } from '../support/tcpProxy.js';
import { testEngine } from '../support/testDatabase.js';
import { busanTrip, startTestApp, type TestApp } from '../support/testApp.js';

const POLL = { timeout: 20_000, interval: 50 };
const cleanUps: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
});

async function app(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await startTestApp(env);
  cleanUps.push(() => t.close());
  return t;
}

describe('failure metrics', () => {
  it.skipIf(testEngine !== 'sqlite')('a write the storage refuses moves trip_db_query_errors_total; a 404 of a handler does not', async () => {
    const t = await app();
    const { accessToken: token } = await t.signIn('full-disk@example.com');
    expect((await t.request('GET', '/api/v1/trips/999999', { token })).status).toBe(404);
    expect((await scrape(t)).value('trip_db_query_errors_total')).toBe(0);
    const cap = capDatabaseSize(sqliteConnection(t.app.services.db));
    cleanUps.push(() => Promise.resolve(cap.lift()));
    const statuses: number[] = [];
    // The pages the database has may hold a few more rows; it refuses once they are full.
    while (statuses.at(-1) !== 503 && statuses.length < 200) statuses.push((await t.request('POST', '/api/v1/trips', { token, body: busanTrip })).status);
    expect(statuses.at(-1)).toBe(503);
    expect((await scrape(t)).value('trip_db_query_errors_total')).toBe(1);
  });

  it('GET /metrics still answers when the database does not (the waiting count keeps its last value)', async () => {
    const t = await app();
    expect((await scrape(t)).value('trip_generations_waiting')).toBe(0);
    await t.app.services.database.close();
    const metrics = await scrape(t);
    expect(metrics.value('trip_generations_waiting')).toBe(0);
    expect(metrics.families.map((f) => f.name)).toContain('trip_db_query_errors_total');
  });

  it.skipIf(testEngine !== 'postgres' || !redisForTests.available)(
    'Redis connections cut by a proxy move trip_redis_reconnects_total per connection',
    async () => {
      const database = await freshPostgresDatabase({ migrated: true });
      cleanUps.push(() => database.drop());
      // Database 15 of Redis is this suite's own (the rate limit counts there): emptied before and after.
      const space = await freshRedisSpace(15);
      await space.client.flushdb();
      cleanUps.push(async () => {
        await space.client.flushdb();
        await space.drop();
      });
      const redis = new URL(redisForTests.available ? redisForTests.url : 'redis://127.0.0.1:6379');
      const proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
      cleanUps.push(() => proxy.close());
      const t = await app({ DATABASE_URL: database.url, REDIS_URL: throughProxy(`redis://${redis.host}/15`, proxy), RATE_LIMIT_PER_MINUTE: '1000' });
      await vi.waitFor(async () => expect((await t.request('GET', '/readyz')).status).toBe(200), POLL);
      expect((await scrape(t)).value('trip_redis_reconnects_total')).toBe(0);
      proxy.cut();
      cleanUps.push(() => Promise.resolve(proxy.restore()));
      await vi.waitFor(async () => {
        const metrics = await scrape(t);
        for (const connection of ['plan_log', 'events', 'session_revocations', 'rate_limit'])
          expect(metrics.value('trip_redis_reconnects_total', { connection }), connection).toBeGreaterThan(0);
      }, POLL);
      proxy.restore();
    },
  );
});
