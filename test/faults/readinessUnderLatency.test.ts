// /readyz when the database (or Redis) is slow or silent: a load balancer polls every instance at
// once, so the answer must come within READINESS_TIMEOUT_MS, DOWN (503 COMMON503) when the database
// has not answered by then, and the probes must not pile up while it does not answer. PostgreSQL
// and Redis sit behind the test's TCP proxy (latency, pause). The deadlines below are generous
// multiples of the 300 ms setting and well under what one round trip takes through the proxy's
// latency: they only tell an answer from a hang, they measure nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeOnPostgres, freshPostgresDatabase, postgresForTests, type FreshPostgresDatabase } from '../support/postgres.js';
import { redisForTests } from '../support/redis.js';
import { errorCodeOf, errorOf } from '../support/responseBody.js';
import { startTcpProxy, throughProxy, type TcpProxy } from '../support/tcpProxy.js';
import { startTestApp, type TestApp, type TestResponse } from '../support/testApp.js';

const READINESS_TIMEOUT_MS = 300;
/** Per chunk and direction: a round trip to the server takes 3 s, what any probe of it needs at least. */
const LATENCY_MS = 1500;
/** Much longer than the setting, much shorter than a round trip. */
const ANSWER_DEADLINE_MS = 2500;
/** For Redis, whose own command timeout (2 s) also ends a silent probe: shorter than that. */
const REDIS_ANSWER_DEADLINE_MS = 1500;

/** Nothing else of the app touches the database meanwhile: no polls, no sweeps (only the probes). */
const QUIET = { READINESS_TIMEOUT_MS: String(READINESS_TIMEOUT_MS), GENERATION_POLL_MS: '3600000', GENERATION_SWEEP_MS: '3600000' };

let fresh: FreshPostgresDatabase;
const proxies: TcpProxy[] = [];
let t: TestApp | undefined;

beforeEach(async () => {
  if (!postgresForTests.available) return;
  fresh = await freshPostgresDatabase({ migrated: true });
});

afterEach(async () => {
  for (const proxy of proxies) proxy.restore();
  await t?.close();
  t = undefined;
  for (const proxy of proxies.splice(0)) await proxy.close();
  await fresh?.drop();
});

async function proxyTo(url: string, defaultPort: number): Promise<TcpProxy> {
  const server = new URL(url);
  const proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || defaultPort) });
  proxies.push(proxy);
  return proxy;
}

/** GET /readyz, or 'no answer' when it has not answered within `deadlineMs`. */
async function readiness(app: TestApp, deadlineMs: number): Promise<TestResponse | 'no answer'> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'no answer'>((resolve) => (timer = setTimeout(() => resolve('no answer'), deadlineMs)));
  try {
    return await Promise.race([app.request('GET', '/readyz'), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function down(answer: TestResponse | 'no answer') {
  return answer === 'no answer' ? answer : [answer.status, errorCodeOf(answer)];
}

async function upAgain(app: TestApp): Promise<void> {
  await expect.poll(async () => (await app.request('GET', '/readyz')).status, { timeout: 20_000, interval: 100 }).toBe(200);
}

describeOnPostgres('/readyz with PostgreSQL slow or silent', () => {
  it('answers 503 within its bound while every round trip to PostgreSQL takes seconds, and 200 once it is fast again', async () => {
    const proxy = await proxyTo(fresh.url, 5432);
    t = await startTestApp({ DATABASE_URL: throughProxy(fresh.url, proxy), ...QUIET });
    expect((await t.request('GET', '/readyz')).status).toBe(200);

    proxy.latency(LATENCY_MS);
    const answer = await readiness(t, ANSWER_DEADLINE_MS);
    expect(down(answer)).toEqual([503, 'COMMON503']);
    expect(errorOf(answer as TestResponse).message).toMatch(/did not answer within 300 ms/);

    proxy.restore();
    await upAgain(t);
  });

  it('answers 503 within its bound while PostgreSQL answers nothing at all, runs one probe at a time meanwhile, and 200 once it answers again', async () => {
    const proxy = await proxyTo(fresh.url, 5432);
    t = await startTestApp({ DATABASE_URL: throughProxy(fresh.url, proxy), ...QUIET });
    expect((await t.request('GET', '/readyz')).status).toBe(200);
    const engine = t.app.services.db.engine;
    if (engine.dialect !== 'postgres') throw new Error('a PostgreSQL app');
    const pool = engine.db.$client;
    const busy = () => pool.totalCount - pool.idleCount;
    // What the start left running (its first claim pass) is done: from here on only probes use the pool.
    await expect.poll(busy, { timeout: 20_000, interval: 50 }).toBe(0);

    proxy.pause();
    for (let call = 0; call < 5; call++) {
      expect(down(await readiness(t, ANSWER_DEADLINE_MS))).toEqual([503, 'COMMON503']);
      // A call that finds the probe still under way (its query, or a connection the silent server
      // never completes) waits for it rather than taking another connection.
      expect(busy()).toBeLessThanOrEqual(1);
    }

    proxy.restore();
    await upAgain(t);
  });
});

describe.skipIf(!postgresForTests.available || !redisForTests.available)('/readyz with Redis (REDIS_URL) silent', () => {
  it('answers 503 within the same bound, naming Redis, and 200 once Redis answers again', async () => {
    const redis = new URL(redisForTests.available ? redisForTests.url : 'redis://127.0.0.1:6379');
    const proxy = await proxyTo(redis.toString(), 6379);
    // Keys of the app carry the fresh database's identity: nothing of another suite is touched.
    t = await startTestApp({ DATABASE_URL: fresh.url, REDIS_URL: throughProxy(redis.toString(), proxy), ...QUIET });
    await upAgain(t);

    proxy.pause();
    const answer = await readiness(t, REDIS_ANSWER_DEADLINE_MS);
    expect(down(answer)).toEqual([503, 'COMMON503']);
    expect(errorOf(answer as TestResponse).message).toMatch(/Redis/);

    proxy.restore();
    await upAgain(t);
  });
});
