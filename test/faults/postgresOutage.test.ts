// PostgreSQL that goes away mid-service (docs/operations.md, "What happens when something fails": the "PostgreSQL unreachable" row):
// requests answer 503 COMMON503 with Retry-After instead of hanging or a 500, /readyz is DOWN while
// it is away, and everything works again once it is back. The database is "stopped" by cutting a
// TCP proxy the test controls, since the PostgreSQL server itself is shared.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase, postgresForTests, type FreshPostgresDatabase } from '../support/postgres.js';
import { startTcpProxy, throughProxy, type TcpProxy } from '../support/tcpProxy.js';
import { bodyOf, errorCodeOf, errorOf } from '../support/responseBody.js';
import { busanTrip, startTestApp, type TestApp } from '../support/testApp.js';

let database: FreshPostgresDatabase;
let proxy: TcpProxy;
let t: TestApp;
let token: string;

beforeAll(async () => {
  if (!postgresForTests.available) throw new Error('the postgres project runs only when PostgreSQL answers');
  database = await freshPostgresDatabase({ migrated: true });
  const server = new URL(database.url);
  proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
  t = await startTestApp({ DATABASE_URL: throughProxy(database.url, proxy) });
  token = (await t.signIn('outage@example.com')).accessToken;
});

afterAll(async () => {
  proxy.restore();
  await t.close();
  await proxy.close();
  await database.drop();
});

/** Polls `probe` until it returns true; the database coming back takes a reconnect, not a fixed time. */
async function eventually(probe: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('PostgreSQL unavailable', () => {
  it('answers 503 COMMON503 with Retry-After while the database is away, /readyz DOWN, and recovers when it is back', async () => {
    const { tripPlanId } = bodyOf(await t.request('POST', '/api/v1/trips', { token, body: busanTrip }), 'createTripPlanSession', 201).data;
    expect((await t.request('GET', '/readyz')).status).toBe(200);

    proxy.cut();
    for (const [method, path, body] of [
      ['GET', '/api/v1/trips', undefined],
      ['GET', `/api/v1/trips/${tripPlanId}`, undefined],
      ['POST', '/api/v1/trips', busanTrip],
      ['PATCH', `/api/v1/trips/${tripPlanId}`, { title: 'Lost' }],
    ] as const) {
      const res = await t.request(method, path, { token, body });
      expect([res.status, errorCodeOf(res)], `${method} ${path}`).toEqual([503, 'COMMON503']);
      expect(res.headers.get('retry-after'), `${method} ${path}`).toMatch(/^[1-9][0-9]*$/);
      // The driver's reason, never drizzle's wrapper with the statement and its parameters.
      expect(errorOf(res).message).not.toMatch(/select|insert|update|params/i);
    }
    const down = await t.request('GET', '/readyz');
    expect([down.status, errorCodeOf(down)]).toEqual([503, 'COMMON503']);

    proxy.restore();
    await eventually(async () => (await t.request('GET', '/readyz')).status === 200);
    const list = bodyOf(await t.request('GET', '/api/v1/trips', { token }), 'listTripPlans', 200).data;
    expect(list.content.map((p) => p.id)).toEqual([tripPlanId]);
    expect((await t.request('PATCH', `/api/v1/trips/${tripPlanId}`, { token, body: { title: 'Back' } })).status).toBe(204);
    expect((await t.request('POST', '/api/v1/trips', { token, body: busanTrip })).status).toBe(201);
  });
});
