// GET /metrics as a Prometheus server sees it (parsed with a real text-format parser): every metric
// of the agreed list is exposed with its type, HTTP requests are counted by operationId, route
// template and status (429s of the rate limit included), and the endpoint is protected: a token
// when METRICS_TOKEN is set, absent (404) on a non-loopback HOST without one, and when metrics are off.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { scrape } from '../support/prometheusScrape.js';
import { errorCodeOf } from '../support/responseBody.js';
import { busanTrip, startTestApp, type TestApp } from '../support/testApp.js';

const apps: TestApp[] = [];
async function app(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await startTestApp(env);
  apps.push(t);
  return t;
}
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(apps.splice(0).map((t) => t.close()));
});

/** metrics-names.md, the names agreed with the dashboard and traces work, and their types. */
const AGREED = {
  http_server_request_duration_seconds: 'HISTOGRAM',
  http_server_requests_total: 'COUNTER',
  trip_rate_limit_rejections_total: 'COUNTER',
  trip_connections_open: 'GAUGE',
  trip_connections_refused_total: 'COUNTER',
  trip_chat_messages_refused_total: 'COUNTER',
  trip_stomp_connections: 'GAUGE',
  trip_stomp_subscriptions: 'GAUGE',
  trip_stomp_messages_delivered_total: 'COUNTER',
  trip_stomp_messages_dropped_total: 'COUNTER',
  trip_stomp_replay_requests_total: 'COUNTER',
  trip_stomp_replay_unrecovered_total: 'COUNTER',
  trip_generations_total: 'COUNTER',
  trip_generations_running: 'GAUGE',
  trip_generations_waiting: 'GAUGE',
  trip_generation_first_day_seconds: 'HISTOGRAM',
  trip_generation_lease_takeovers_total: 'COUNTER',
  trip_generation_fenced_writes_total: 'COUNTER',
  db_client_connection_count: 'GAUGE',
  db_client_connection_pending_requests: 'GAUGE',
  trip_db_query_errors_total: 'COUNTER',
  trip_redis_reconnects_total: 'COUNTER',
  // two of prom-client's default process metrics
  process_cpu_user_seconds_total: 'COUNTER',
  nodejs_eventloop_lag_seconds: 'GAUGE',
};

describe('GET /metrics', () => {
  it('exposes every agreed metric with its type and help text, in the Prometheus text format', async () => {
    const t = await app();
    const metrics = await scrape(t);
    const exposed = Object.fromEntries(metrics.families.map((f) => [f.name, f.type]));
    expect(exposed).toMatchObject(AGREED);
    for (const family of metrics.families.filter((f) => f.name in AGREED)) expect(family.help, family.name).not.toBe('');
    const connections = metrics.value('db_client_connection_count');
    if (t.app.services.db.dialect === 'sqlite')
      expect(metrics.value('db_client_connection_count', { state: 'used' }), 'SQLite: one connection, in use').toBe(1);
    else expect(connections, 'the PostgreSQL pool has served the sign-up at least').toBeGreaterThanOrEqual(1);
  });

  it('counts requests by operationId, route template and status; a path that is no operation is "unmatched"', async () => {
    const t = await app();
    const { accessToken } = await t.signIn('counted@example.com');
    const plan = await t.request<{ data: { tripPlanId: number } }>('POST', '/api/v1/trips', { token: accessToken, body: busanTrip });
    await t.request('GET', `/api/v1/trips/${plan.body.data.tripPlanId}`, { token: accessToken });
    await t.request('GET', '/api/v1/trips/999999', { token: accessToken });
    await t.request('GET', '/no/such/path');
    const metrics = await scrape(t);
    expect(metrics.value('http_server_requests_total', { operation_id: 'getTripPlan', http_response_status_code: '200' })).toBe(1);
    expect(metrics.value('http_server_requests_total', { operation_id: 'getTripPlan', http_response_status_code: '404' })).toBe(1);
    expect(metrics.value('http_server_requests_total', { operation_id: 'createTripPlanSession', http_response_status_code: '201' })).toBe(1);
    expect(metrics.value('http_server_requests_total', { operation_id: 'unmatched', http_response_status_code: '404' })).toBe(1);
    const getTripPlan = { http_request_method: 'GET', http_route: '/api/v1/trips/{tripPlanId}', operation_id: 'getTripPlan' };
    expect(metrics.observations('http_server_request_duration_seconds', getTripPlan)).toBe(2);
  });

  it('labels a HEAD answered by a GET route with its own method, apart from the GETs', async () => {
    const t = await app();
    await t.request('GET', '/api/v1/regions');
    await t.request('HEAD', '/api/v1/regions');
    await t.request('HEAD', '/api/v1/regions');
    const metrics = await scrape(t);
    const listRegions = { http_route: '/api/v1/regions', operation_id: 'listRegions', http_response_status_code: '200' };
    expect(metrics.observations('http_server_request_duration_seconds', { ...listRegions, http_request_method: 'GET' })).toBe(1);
    expect(metrics.observations('http_server_request_duration_seconds', { ...listRegions, http_request_method: 'HEAD' })).toBe(2);
  });

  it('a 429 of the rate limit moves trip_rate_limit_rejections_total and the request counter with status 429', async () => {
    const t = await app({ RATE_LIMIT_PER_MINUTE: '2' });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await t.request('GET', '/healthz')).status);
    expect(statuses).toEqual([200, 200, 429]);
    // A new window, so the scrape itself is not refused: a minute later by the host's clock, which the limit counts by.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60_000, shouldAdvanceTime: true });
    t.advance(60_000);
    const metrics = await scrape(t);
    expect(metrics.value('trip_rate_limit_rejections_total')).toBe(1);
    expect(metrics.value('http_server_requests_total', { operation_id: 'getHealth', http_response_status_code: '429' })).toBe(1);
    expect(metrics.value('http_server_requests_total', { operation_id: 'getHealth', http_response_status_code: '200' })).toBe(2);
  });

  it('with METRICS_TOKEN: no token or another one is 401 AUTH028, the token is accepted', async () => {
    const token = 'metrics-token-0123456789abcdef';
    const t = await app({ METRICS_TOKEN: token, HOST: '0.0.0.0' });
    const missing = await t.request('GET', '/metrics');
    expect([missing.status, errorCodeOf(missing)]).toEqual([401, 'AUTH028']);
    const wrong = await t.request('GET', '/metrics', { token: `${token}x` });
    expect([wrong.status, errorCodeOf(wrong)]).toEqual([401, 'AUTH028']);
    const { accessToken } = await t.signIn('not-an-operator@example.com');
    expect((await t.request('GET', '/metrics', { token: accessToken })).status, 'an access token is not the metrics token').toBe(401);
    const metrics = await scrape(t, { authorization: `Bearer ${token}` });
    expect(metrics.value('http_server_requests_total', { operation_id: 'getMetrics', http_response_status_code: '401' }), 'the three refused').toBe(3);
  });

  it('without METRICS_TOKEN on a non-loopback HOST or behind a trusted proxy, and with METRICS_ENABLED=false, /metrics is not exposed (404)', async () => {
    const settings: Record<string, string>[] = [
      { HOST: '0.0.0.0' },
      { HOST: '::' },
      { HOST: '127.0.0.1', TRUST_PROXY_HOPS: '1' },
      { METRICS_ENABLED: 'false' },
    ];
    for (const env of settings) {
      const res = await (await app(env)).request('GET', '/metrics');
      expect([res.status, errorCodeOf(res)], JSON.stringify(env)).toEqual([404, 'COMMON404']);
    }
    const off = await app({ METRICS_ENABLED: 'false' });
    expect(off.app.services.metrics, 'nothing is recorded').toBeNull();
  });
});
