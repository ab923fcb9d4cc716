// The rate limit counted in Redis: the rate-limit store contract (rateLimitStoreContract.ts), then
// what only a shared count does: two instances together allow exactly the limit per client key, the
// middleware answers 429 COMMON429 with Retry-After and RateLimit-* headers from it, the keys stay
// in REDIS_URL's database, and without Redis the in-memory insurance allows each instance its share.
import { Hono } from 'hono';
import { afterEach, expect, it } from 'vitest';
import { AppError } from '../../src/kernel/appError.js';
import type { HttpEnv } from '../../src/http/httpEnv.js';
import { rateLimit } from '../../src/http/rateLimit.js';
import { createRedisRateLimits, type RedisLimit } from '../../src/rateLimit/rateLimitStore.redis.js';
import type { RateLimitStore } from '../../src/rateLimit/rateLimitStore.js';
import { openRedisConnections } from '../../src/redis/redisConnections.js';
import { describeOnRedis, freshRedisSpace } from '../support/redis.js';
import { startTcpProxy, throughProxy } from '../support/tcpProxy.js';
import { rateLimitStoreContract } from './rateLimitStoreContract.js';

/** An instance's store of one limit, on Redis connections of its own that close() closes. */
function storeOn(url: string, limit: RedisLimit & { instances: number }) {
  const connections = openRedisConnections({ url, name: limit.keyPrefix, onError: () => {} });
  const limits = createRedisRateLimits({ connections, instances: limit.instances });
  return { ...limits.store(limit), connected: limits.connected, close: () => connections.close() };
}

describeOnRedis('the Redis rate limit store', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  rateLimitStoreContract(async ({ limit, windowSeconds }) => {
    const space = await freshRedisSpace();
    const store = storeOn(space.url, { limit, windowSeconds, instances: 1, keyPrefix: space.keyPrefix });
    await store.connected;
    return {
      store,
      async done() {
        await store.close();
        await space.drop();
      },
    };
  });

  async function twoInstances(limit: number, db = 0) {
    const space = await freshRedisSpace(db);
    const make = () => storeOn(space.url, { limit, windowSeconds: 60, instances: 2, keyPrefix: space.keyPrefix });
    const stores = [make(), make()];
    cleanups.push(async () => {
      await Promise.all(stores.map((s) => s.close()));
      await space.drop();
    });
    // Commands are not queued while connecting (the insurance would answer): wait until both are up.
    await Promise.all(stores.map((s) => s.connected));
    return { a: stores[0]!, b: stores[1]!, space };
  }

  it('two instances together allow exactly the limit per client key, then say how long until the window ends', async () => {
    const { a, b } = await twoInstances(5);
    const hits = [];
    for (let i = 0; i < 6; i++) hits.push(await (i % 2 === 0 ? a : b).hit('203.0.113.7'));
    expect(hits.map((h) => [h.limited, h.remaining])).toEqual([
      [false, 4],
      [false, 3],
      [false, 2],
      [false, 1],
      [false, 0],
      [true, 0],
    ]);
    expect(hits[5]!.resetMs).toBeGreaterThan(0);
    expect(hits[5]!.resetMs).toBeLessThanOrEqual(60_000);
    expect(await a.hit('198.51.100.1')).toMatchObject({ limited: false, remaining: 4 });
  });

  it('the middleware answers 429 COMMON429 with Retry-After and RateLimit-* headers from the shared count', async () => {
    const { a, b } = await twoInstances(2);
    const appOn = (store: RateLimitStore) => {
      const app = new Hono<HttpEnv>();
      app.use('*', rateLimit({ limit: 2, windowSeconds: 60, clientKey: () => 'client', store }));
      app.get('/', (c) => c.text('ok'));
      app.onError((error, c) => {
        if (!(error instanceof AppError)) throw error;
        return c.json({ code: error.code }, error.status as 429, error.headers);
      });
      return app;
    };
    const [first, second, third] = [await appOn(a).request('/'), await appOn(b).request('/'), await appOn(a).request('/')];
    expect([first.status, second.status, third.status]).toEqual([200, 200, 429]);
    expect(second.headers.get('RateLimit-Remaining')).toBe('0');
    expect(await third.json()).toEqual({ code: 'COMMON429' });
    expect(Number(third.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    expect(third.headers.get('RateLimit-Limit')).toBe('2');
  });

  it('keeps its keys in the database REDIS_URL names', async () => {
    const { a, space } = await twoInstances(3, 6);
    await a.hit('client');
    expect((await space.client.keys(`${space.keyPrefix}*`)).length).toBeGreaterThan(0);
    const dbZero = await freshRedisSpace(0);
    expect(await dbZero.client.keys(`${space.keyPrefix}*`)).toEqual([]);
    dbZero.client.disconnect();
  });

  it('a Redis that does not answer (a silent link) stalls no hit: the insurance answers within the hit timeout', async () => {
    const space = await freshRedisSpace();
    const redis = new URL(space.url);
    const proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    const store = storeOn(throughProxy(space.url, proxy), { limit: 4, windowSeconds: 60, instances: 2, keyPrefix: space.keyPrefix });
    cleanups.push(async () => {
      proxy.restore();
      await store.close();
      await proxy.close();
      await space.drop();
    });
    await store.connected;
    expect(await store.hit('client')).toMatchObject({ limited: false, remaining: 3 });
    proxy.blackHole();
    const started = Date.now();
    const hits = [await store.hit('client'), await store.hit('client'), await store.hit('client')];
    // Each waited the hit timeout (500 ms), not the connection's command timeout.
    expect(Date.now() - started).toBeLessThan(3 * 1000);
    expect(hits.map((h) => [h.limited, h.remaining])).toEqual([
      [false, 1],
      [false, 0],
      [true, 0],
    ]);
  });
});

it('without Redis, each instance allows its share of the limit (the in-memory insurance)', async () => {
  const store = storeOn('redis://127.0.0.1:1/0', { limit: 10, windowSeconds: 60, instances: 2 });
  try {
    const hits = [];
    for (let i = 0; i < 6; i++) hits.push(await store.hit('client'));
    expect(hits.map((h) => h.limited)).toEqual([false, false, false, false, false, true]);
  } finally {
    await store.close();
  }
});
