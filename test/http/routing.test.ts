// Routes outside the spec: unknown paths, wrong methods, CORS, request ids, docs assets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUpsAfterEach } from '../support/cleanUps.js';
import { ensureFreshBuild } from '../support/freshBuild.js';
import { errorCodeOf } from '../support/responseBody.js';
import { startTestApp, type TestApp } from '../support/testApp.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
const cleanUps = cleanUpsAfterEach();

describe('routing', () => {
  it('answers 404 COMMON404 in the envelope for an unknown path', async () => {
    const res = await t.request('GET', '/api/v1/nowhere');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, status: 404, data: { code: 'COMMON404', path: '/api/v1/nowhere', errors: null } });
  });

  it('answers 405 COMMON405 with Allow for a known path and an undocumented method', async () => {
    const res = await t.request('PUT', '/api/v1/trips/5');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST, DELETE, PATCH');
    expect(errorCodeOf(res)).toBe('COMMON405');
    const list = await t.request('DELETE', '/api/v1/trips');
    expect([list.status, list.headers.get('allow')]).toEqual([405, 'GET, POST']);
    // A trailing slash is another path, not a wrong method.
    const slash = await t.request('GET', '/api/v1/trips/');
    expect([slash.status, errorCodeOf(slash)]).toEqual([404, 'COMMON404']);
  });

  it('sends RateLimit headers on every response and counts down', async () => {
    const limited = await startTestApp({ RATE_LIMIT_PER_MINUTE: '5' });
    const first = await limited.request('GET', '/healthz');
    const second = await limited.request('GET', '/api/v1/nowhere');
    expect([first.headers.get('ratelimit-limit'), first.headers.get('ratelimit-remaining'), first.headers.get('ratelimit-reset')]).toEqual(['5', '4', '60']);
    expect(second.headers.get('ratelimit-remaining')).toBe('3');
    await limited.close();
  });

  it('echoes an X-Request-Id within the spec bounds (RequestId) and replaces any other with a generated one, without failing the request', async () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    for (const id of ['abc-123', 'svc_1.2', 'a'.repeat(128)]) {
      const res = await t.request('GET', '/healthz', { headers: { 'x-request-id': id } });
      expect([res.status, res.headers.get('x-request-id')]).toEqual([200, id]);
    }
    for (const id of ['bad id with spaces', 'trace:1', 'a'.repeat(129), 'caf\u00e9']) {
      const res = await t.request('GET', '/healthz', { headers: { 'x-request-id': id } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toMatch(uuid);
    }
    expect((await t.request('GET', '/healthz')).headers.get('x-request-id')).toMatch(uuid);
    // Error responses carry it too, outside the spec's routes as well.
    expect((await t.request('GET', '/api/v1/nowhere', { headers: { 'x-request-id': 'lost-1' } })).headers.get('x-request-id')).toBe('lost-1');
  });

  it('answers CORS preflights', async () => {
    const res = await t.request('OPTIONS', '/api/v1/trips', {
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
  });

  it("sends the CORS headers, the request id and the handler's own headers together on answers and errors alike", async () => {
    const expose = 'Location,X-Request-Id,Retry-After,RateLimit-Limit,RateLimit-Remaining,RateLimit-Reset';
    const landing = await t.request('GET', '/', { headers: { origin: 'http://localhost:3000', 'x-request-id': 'cors-1' } });
    expect([landing.headers.get('access-control-allow-origin'), landing.headers.get('access-control-expose-headers')]).toEqual(['*', expose]);
    expect([landing.headers.get('vary'), landing.headers.get('x-request-id')]).toEqual(['Accept', 'cors-1']);
    // Swagger UI's start, compiled by the build.
    await ensureFreshBuild();
    const asset = await t.request('GET', '/docs/assets/init.js');
    expect([asset.status, asset.headers.get('access-control-allow-origin')]).toEqual([200, '*']);

    const listed = await cleanUps.app({ CORS_ORIGINS: 'https://app.example.com', RATE_LIMIT_PER_MINUTE: '5' });
    const allowed = await listed.request('GET', '/', { headers: { origin: 'https://app.example.com' } });
    expect([allowed.headers.get('access-control-allow-origin'), allowed.headers.get('vary')]).toEqual(['https://app.example.com', 'Accept, Origin']);
    expect(allowed.headers.get('ratelimit-remaining')).toBe('4');
    const other = await listed.request('GET', '/api/v1/nowhere', { headers: { origin: 'https://elsewhere.example.com' } });
    expect([other.status, other.headers.get('access-control-allow-origin'), other.headers.get('vary')]).toEqual([404, null, 'Origin']);
    expect([other.headers.get('access-control-expose-headers'), other.headers.get('ratelimit-remaining')]).toEqual([expose, '3']);
    expect(other.headers.get('x-request-id')).toBeTruthy();
  }, 120_000);

  it('serves the spec documents and Swagger UI with local assets', async () => {
    const openapi = await t.request('GET', '/openapi.yaml');
    expect(openapi.text).toMatch(/^openapi: 3\.1\.0/);
    const asyncapi = await t.request('GET', '/asyncapi.yaml');
    expect(asyncapi.text).toContain('asyncapi: 3.0.0');
    expect(asyncapi.text).not.toMatch(/\$ref: ["']?\.\//);
    const docs = await t.request('GET', '/docs');
    expect(docs.text).toContain('/docs/assets/swagger-ui-bundle.js');
    expect(docs.text).not.toMatch(/https?:\/\//);
    const bundle = await t.request('GET', '/docs/assets/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect(bundle.text.length).toBeGreaterThan(100_000);
    await ensureFreshBuild();
    expect((await t.request('GET', '/docs/assets/init.js')).text).toContain('url: "/openapi.yaml"');
    expect((await t.request('GET', '/docs/assets/../../package.json')).status).toBe(404);
    const page = await t.request('GET', '/docs/asyncapi');
    expect(page.text).toContain('/user/sub/schedule/{tripPlanId}');
    expect(page.text).toContain('TripPlanProgressMessage');
  }, 120_000);
});
