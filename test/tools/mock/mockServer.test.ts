// The HTTP half of `npm run mock`, in-process (app.request): every operation but the documents and
// docs pages answers its documented responses from the spec's examples, with the headers they
// declare and bodies the generated response validators accept; requests are checked as the service
// checks them, with the same errors.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  arrayOrEmpty,
  fillTemplate,
  jsonAt,
  jsonText,
  numberOrUndefined,
  readOperations,
  readYaml,
  resolveObject,
  stringOrUndefined,
  type Json,
} from '../../../conformance/specModel/index.js';
import type { OperationId } from '../../../generated/operations.js';
import { routes } from '../../../generated/routes.js';
import { operationValidators } from '../../../generated/validators.js';
import { createMock, type Mock } from '../../../tools/mock/createMock.js';
import { busanTrip, startTestApp, type TestApp } from '../../support/testApp.js';

const spec = readYaml(path.resolve(import.meta.dirname, '../../../specs/openapi.yaml'));
const operations = readOperations(spec);
const token = 'any.token-at_all~';

/** A request every operation accepts: path parameters and body from the spec's examples. */
function validRequest(operationId: string): { method: string; url: string; body?: string } {
  const op = operations.find((o) => o.operationId === operationId)!;
  const item = resolveObject(spec, jsonAt(spec, 'paths', op.path));
  const params = [...arrayOrEmpty(item.parameters), ...arrayOrEmpty(jsonAt(item, op.method, 'parameters'))].map((p) => resolveObject(spec, p));
  const example = (name: string) => params.find((p) => p.in === 'path' && p.name === name)?.example;
  const url = fillTemplate(op.path, (name) => numberOrUndefined(example(name)) ?? stringOrUndefined(example(name)));
  return { method: op.method.toUpperCase(), url, ...(op.body && { body: JSON.stringify(op.body.examples[0]!.value) }) };
}

let mock: Mock;
let server: TestApp;
beforeAll(async () => {
  mock = createMock({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
  server = await startTestApp();
});
afterAll(async () => {
  mock.close();
  await server.close();
});

async function call(operationId: string, headers: Record<string, string> = {}) {
  const { method, url, body } = validRequest(operationId);
  const res = await mock.hono.request(url, {
    method,
    body,
    headers: { authorization: `Bearer ${token}`, ...(body && { 'content-type': 'application/json' }), ...headers },
  });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').includes('json') && text ? (JSON.parse(text) as Json) : undefined;
  return { res, text, json };
}

/** The documents and docs pages: answered by the service's own handlers, not from examples (mockDocuments.test.ts). */
const servedByTheService = new Set([
  'getLandingPage',
  'getOpenApiDocument',
  'getAsyncApiDocument',
  'getApiDocs',
  'getAsyncApiDocs',
  'getMetricsDashboard',
  'getPlayground',
]);
const fromExamples = operations.filter((op) => !servedByTheService.has(op.operationId));

/** Every documented status of every operation answered from examples, with the names of its examples. */
const answers = fromExamples.flatMap((op) => op.responses.map((r) => ({ operationId: op.operationId, status: r.status, response: r })));

describe('mock server: answers', () => {
  it('covers every operation the service routes', () => {
    expect(operations.map((o) => o.operationId).sort()).toEqual(routes.map((r) => r.operationId).sort());
  });

  it.each(fromExamples.map((op) => ({ operationId: op.operationId, success: op.responses.find((r) => r.status < 400)! })))(
    '$operationId answers its documented success with the first example and every header it declares',
    async ({ operationId, success }) => {
      const { res, text, json } = await call(operationId);
      expect(res.status).toBe(success.status);
      for (const header of success.headers) expect(res.headers.get(header), header).not.toBeNull();
      expect(res.headers.get('X-Request-Id')).toMatch(/^[0-9a-f-]{36}$/);
      if (success.contentType === null) return expect(text).toBe('');
      expect(res.headers.get('content-type')).toContain(success.contentType);
      const example = success.examples[0]!.value;
      if (json === undefined) return expect(text).toBe(example);
      expect(json).toEqual(example);
      const validate = operationValidators[operationId as OperationId].responses[success.status]!;
      expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    },
  );

  it.each(answers.filter((a) => a.response.contentType !== null))(
    '$operationId with Prefer: code=$status answers a body the generated response validator accepts',
    async ({ operationId, status, response }) => {
      const { res, json } = await call(operationId, { prefer: `code=${status}` });
      expect(res.status).toBe(status);
      for (const header of response.requiredHeaders) expect(res.headers.get(header), header).not.toBeNull();
      if (json !== undefined) {
        const validate = operationValidators[operationId as OperationId].responses[status]!;
        expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
      }
    },
  );

  it('points Location at the resource the example body created, and the mock answers it', async () => {
    const plan = await call('createTripPlanSession');
    expect(plan.res.headers.get('Location')).toBe(`/api/v1/trips/${jsonText(jsonAt(plan.json, 'data', 'tripPlanId'))}`);
    const prompt = await call('createPromptTemplate');
    expect(prompt.res.headers.get('Location')).toBe(`/api/v1/admin/prompts/${jsonText(jsonAt(prompt.json, 'data', 'id'))}`);
    for (const location of [plan.res.headers.get('Location')!, prompt.res.headers.get('Location')!]) {
      expect((await mock.hono.request(location, { headers: { authorization: `Bearer ${token}` } })).status, location).toBe(200);
    }
  });

  it('sends the RateLimit-* headers the service sends, and keeps a valid X-Request-Id of the caller', async () => {
    const { res } = await call('listTripPlans', { 'x-request-id': 'client-trace-0001' });
    expect(res.headers.get('X-Request-Id')).toBe('client-trace-0001');
    expect(Number(res.headers.get('RateLimit-Limit'))).toBeGreaterThan(0);
    expect(res.headers.get('RateLimit-Remaining')).toMatch(/^\d+$/);
    expect(res.headers.get('RateLimit-Reset')).toMatch(/^\d+$/);
  });

  it('answers Prefer: code=404 on getTripPlan with the TRIP101 example', async () => {
    const { res, json } = await call('getTripPlan', { prefer: 'code=404' });
    expect(res.status).toBe(404);
    expect(jsonAt(json, 'data', 'code')).toBe('TRIP101');
  });

  it('answers Prefer: example=<name> with that example, finding its status by name', async () => {
    const { res, json } = await call('getTripPlan', { prefer: 'example=expiredToken' });
    expect(res.status).toBe(401);
    expect(jsonAt(json, 'data', 'code')).toBe('AUTH002');
  });

  it('sends the required Retry-After of a documented 429', async () => {
    const { res } = await call('listTripPlans', { prefer: 'code=429' });
    expect(res.status).toBe(429);
    expect(res.headers.get('Retry-After')).toBe('30');
  });

  it('refuses a Prefer code the operation does not document, as problem JSON (not an API error)', async () => {
    const { res } = await call('getTripPlan', { prefer: 'code=418' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
  });
});

describe('mock server: requests are checked as the service checks them', () => {
  /** The same request to the mock and to the real service (in-process); bodies without the timestamp. */
  async function both(method: string, url: string, init: { body?: string; headers?: Record<string, string> } = {}) {
    const headers = { authorization: `Bearer ${token}`, ...init.headers };
    const fromMock = await mock.hono.request(url, { method, body: init.body, headers });
    const { accessToken } = await server.signIn('mock-parity@example.com');
    const fromServer = await server.app.hono.request(url, { method, body: init.body, headers: { ...headers, authorization: `Bearer ${accessToken}` } });
    const strip = async (res: Response) => {
      const { data, ...envelope } = (await res.json()) as { data: Record<string, unknown> };
      const { timestamp: _timestamp, ...error } = data;
      return { status: res.status, ...envelope, data: error };
    };
    return { mock: await strip(fromMock), server: await strip(fromServer) };
  }

  it('answers a body that breaks the schema with 400 COMMON001 and the same errors[] as the service', async () => {
    const body = JSON.stringify({ ...busanTrip, themes: ['NOPE'], duration: 0, nickname: 'x' });
    const answers = await both('POST', '/api/v1/trips', { body, headers: { 'content-type': 'application/json' } });
    expect(answers.mock).toMatchObject({ status: 400, data: { code: 'COMMON001' } });
    expect((answers.mock.data.errors as unknown[]).length).toBeGreaterThanOrEqual(3);
    expect(answers.mock).toEqual(answers.server);
  });

  it('answers a bad path or query parameter with 400 COMMON001 like the service', async () => {
    for (const url of ['/api/v1/trips/abc', '/api/v1/trips/0', '/api/v1/trips?size=0&sort=sideways']) {
      const answers = await both('GET', url);
      expect(answers.mock, url).toMatchObject({ status: 400, data: { code: 'COMMON001' } });
      expect(answers.mock, url).toEqual(answers.server);
    }
  });

  it('answers malformed JSON and a body that is not application/json with 400 COMMON002 like the service', async () => {
    for (const headers of [{ 'content-type': 'application/json' }, { 'content-type': 'text/plain' }]) {
      const answers = await both('POST', '/api/v1/trips', { body: '{"themes": [', headers });
      expect(answers.mock).toMatchObject({ status: 400, data: { code: 'COMMON002' } });
      expect(answers.mock).toEqual(answers.server);
    }
  });

  it('answers a secured operation without a token with 401 AUTH011, and a malformed Authorization with 401 AUTH001', async () => {
    const missing = await mock.hono.request('/api/v1/trips');
    expect([missing.status, ((await missing.json()) as { data: { code: string } }).data.code]).toEqual([401, 'AUTH011']);
    const basic = await mock.hono.request('/api/v1/trips', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect([basic.status, ((await basic.json()) as { data: { code: string } }).data.code]).toEqual([401, 'AUTH001']);
  });

  it('accepts any syntactically valid bearer token, on admin operations too, and public operations without one', async () => {
    for (const anyToken of ['x', 'eyJhbGciOiJIUzI1NiJ9.e30.sig', 'abc~def+ghi/jkl=']) {
      expect((await mock.hono.request('/api/v1/admin/prompts', { headers: { authorization: `Bearer ${anyToken}` } })).status, anyToken).toBe(200);
    }
    expect((await mock.hono.request('/healthz')).status).toBe(200);
  });

  it('answers an unknown path with 404 COMMON404 and a known path with another method with 405 and Allow', async () => {
    const unknown = await mock.hono.request('/api/v1/nowhere');
    expect([unknown.status, ((await unknown.json()) as { data: { code: string } }).data.code]).toEqual([404, 'COMMON404']);
    const wrongMethod = await mock.hono.request('/api/v1/trips', { method: 'PUT' });
    expect([wrongMethod.status, wrongMethod.headers.get('Allow')]).toEqual([405, 'GET, POST']);
    expect(((await wrongMethod.json()) as { data: { code: string } }).data.code).toBe('COMMON405');
  });

  it('answers a body over BODY_LIMIT_BYTES with 413 COMMON413', async () => {
    const small = createMock({ NODE_ENV: 'test', LOG_LEVEL: 'silent', BODY_LIMIT_BYTES: '64' });
    const res = await small.hono.request('/api/v1/trips', {
      method: 'POST',
      body: JSON.stringify(busanTrip),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    expect([res.status, ((await res.json()) as { data: { code: string } }).data.code]).toEqual([413, 'COMMON413']);
    small.close();
  });

  it('checks the request before honouring Prefer: a bad request is never answered with the preferred example', async () => {
    const res = await mock.hono.request('/api/v1/trips/abc', { headers: { authorization: `Bearer ${token}`, prefer: 'code=200' } });
    expect(res.status).toBe(400);
  });
});
