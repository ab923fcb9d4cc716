// trip_redis_reconnects_total moves on real reconnects: with REDIS_URL (on PostgreSQL, which REDIS_URL
// needs), connections cut by a proxy in front of Redis are counted per connection.
import { expect, it, vi } from 'vitest';
import { cleanUpsAfterEach } from '../support/cleanUps.js';
import { freshPostgresDatabase } from '../support/postgres.js';
import { scrape } from '../support/prometheusScrape.js';
import { describeOnRedis, freshRedisSpace, redisForTests } from '../support/redis.js';
import { startTcpProxy, throughProxy } from '../support/tcpProxy.js';

const POLL = { timeout: 20_000, interval: 50 };
const cleanUps = cleanUpsAfterEach();

describeOnRedis('Redis reconnect metric', () => {
  it('Redis connections cut by a proxy move trip_redis_reconnects_total per connection', async () => {
    const database = await freshPostgresDatabase({ migrated: true });
    cleanUps.add(() => database.drop());
    // Database 15 of Redis is this suite's own (the rate limit counts there): emptied before and after.
    const space = await freshRedisSpace(15);
    await space.client.flushdb();
    cleanUps.add(async () => {
      await space.client.flushdb();
      await space.drop();
    });
    const redis = new URL(redisForTests.available ? redisForTests.url : 'redis://127.0.0.1:6379');
    const proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    cleanUps.add(() => proxy.close());
    const t = await cleanUps.app({ DATABASE_URL: database.url, REDIS_URL: throughProxy(`redis://${redis.host}/15`, proxy), RATE_LIMIT_PER_MINUTE: '1000' });
    await vi.waitFor(async () => expect((await t.request('GET', '/readyz')).status).toBe(200), POLL);
    expect((await scrape(t)).value('trip_redis_reconnects_total')).toBe(0);
    proxy.cut();
    cleanUps.add(() => proxy.restore());
    await vi.waitFor(async () => {
      const metrics = await scrape(t);
      for (const connection of ['plan_log', 'events', 'session_revocations', 'rate_limit'])
        expect(metrics.value('trip_redis_reconnects_total', { connection }), connection).toBeGreaterThan(0);
    }, POLL);
    proxy.restore();
  });
});
