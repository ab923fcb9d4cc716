// The HTTP faults a client asks the mock for with `x-mock-fault` (docs/mock.md, Faults), over real
// HTTP: the documented 429 or 503 with Retry-After, n times for the client's id and then the usual
// answer (so a client's retries can be tested), each id counted on its own; and a header the mock
// cannot honour answered as problem JSON, never as an API error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonAt, type Json } from '../../../conformance/specModel/index.js';
import { operationValidators } from '../../../generated/validators.js';
import { startMockServer, type RunningMock } from '../../../tools/mock/mockServer.js';

let m: RunningMock;
beforeAll(async () => {
  m = await startMockServer(0, '127.0.0.1', { NODE_ENV: 'test', LOG_LEVEL: 'silent', MOCK_STREAM_DELAY_MS: '0' });
});
afterAll(() => m.close());

const get = (path: string, fault?: string) =>
  fetch(`${m.url}${path}`, { headers: { authorization: 'Bearer any.token', ...(fault !== undefined && { 'x-mock-fault': fault }) } });

describe('mock HTTP faults: status', () => {
  it('answers 503 with Retry-After the first `times` requests of an id, then as usual', async () => {
    const fault = 'status=503; retry-after=2; times=2; id=retry-503';
    const answers = [await get('/api/v1/trips/42', fault), await get('/api/v1/trips/42', fault), await get('/api/v1/trips/42', fault)];
    expect(answers.map((res) => res.status)).toEqual([503, 503, 200]);
    for (const res of answers.slice(0, 2)) {
      expect(res.headers.get('retry-after')).toBe('2');
      const body = (await res.json()) as Json;
      expect(jsonAt(body, 'data', 'code')).toBe('COMMON503');
      const validate = operationValidators.getTripPlan.responses[503]!;
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  it('answers 429 with Retry-After 1 by default, once for an id without times, and counts each id on its own', async () => {
    const [a1, b1, a2, b2] = [
      await get('/api/v1/trips', 'status=429; id=client-a'),
      await get('/api/v1/trips', 'status=429; id=client-b'),
      await get('/api/v1/trips', 'status=429; id=client-a'),
      await get('/api/v1/trips', 'status=429; id=client-b'),
    ];
    expect([a1, b1, a2, b2].map((res) => res.status)).toEqual([429, 429, 200, 200]);
    expect(a1.headers.get('retry-after')).toBe('1');
    expect(jsonAt((await a1.json()) as Json, 'data', 'code')).toBe('COMMON429');
  });

  it('answers every request that carries a status without an id', async () => {
    const statuses = [await get('/api/v1/regions', 'status=503'), await get('/api/v1/regions', 'status=503')].map((res) => res.status);
    expect(statuses).toEqual([503, 503]);
    expect((await get('/api/v1/regions')).status).toBe(200);
  });

  it('refuses before the request is checked, as a busy server does, and starts nothing', async () => {
    const res = await fetch(`${m.url}/api/v1/trips/43`, { method: 'POST', headers: { 'x-mock-fault': 'status=503' } });
    expect(res.status).toBe(503);
    expect(m.mock.generation.isPlaying(43)).toBe(false);
  });
});

describe('mock HTTP faults: a header the mock cannot honour', () => {
  it.each([
    ['/api/v1/trips/42', 'explode'],
    ['/api/v1/trips/42', 'status=500'],
    ['/api/v1/trips/42', 'status=503; times=2'],
    ['/api/v1/trips/42', 'drop-after=3'],
    ['/healthz', 'status=503'],
    ['/api/v1/trips/42', 'new-epoch-after=2'],
  ])('%s with x-mock-fault: %s is a 400 problem JSON', async (path, fault) => {
    const res = await get(path, fault);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(jsonAt((await res.json()) as Json, 'title')).toBe('The mock cannot honour the x-mock-fault header');
  });
});
