// A client chooses its request's method, so the metric label takes only the known methods (RFC
// 9110's and PATCH) and `_OTHER` for the rest, as OpenTelemetry's http.request.method says: a
// PROPFIND or MKCOL adds no series of its own to GET /metrics. The real server, which parses such
// methods, in front of the app.
import { afterEach, describe, expect, it } from 'vitest';
import { requestFrom } from '../support/rawConnections.js';
import { scrape } from '../support/prometheusScrape.js';
import { startTestServer, type TestServer } from '../support/testServer.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
});

describe('the method label of the HTTP metrics', () => {
  it('a method that is not a known one is counted as _OTHER, and makes no label of its own', async () => {
    const s = await startTestServer();
    servers.push(s);
    for (const method of ['PROPFIND', 'MKCOL', 'PROPFIND']) {
      expect((await requestFrom(s.server.port, method, '/api/v1/trips')).status).toBe(405);
    }
    expect((await requestFrom(s.server.port, 'GET', '/api/v1/regions')).status).toBe(200);

    const metrics = await scrape(s);
    const text = (await s.request('GET', '/metrics')).text;
    expect(text).not.toMatch(/PROPFIND|MKCOL/);
    expect(metrics.observations('http_server_request_duration_seconds', { http_request_method: '_OTHER' })).toBe(3);
    expect(metrics.observations('http_server_request_duration_seconds', { http_request_method: '_OTHER', http_response_status_code: '405' })).toBe(3);
    expect(metrics.observations('http_server_request_duration_seconds', { http_request_method: 'GET', operation_id: 'listRegions' })).toBe(1);
  });
});
