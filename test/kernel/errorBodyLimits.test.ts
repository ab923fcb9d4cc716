// No error response is larger than 4 KiB whatever the input: echoed values (rejectedValue, messages
// naming values, paths) are cut with the marker `...[truncated]`, and `errors` lists at most 20 fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedRejectedValue, fitErrorResponse, TRUNCATION_MARKER, truncateText } from '../../src/kernel/errorBodyLimits.js';
import { errorOf } from '../support/responseBody.js';
import { busanTrip, startTestApp, type TestApp, type TestResponse } from '../support/testApp.js';

const MAX_BYTES = 4096;
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp();
  token = (await t.signIn('echo@example.com')).accessToken;
});
afterAll(() => t.close());

const nested = (depth: number): unknown => (depth === 0 ? 'x'.repeat(10_000) : [nested(depth - 1)]);
const manyKeys = (count: number, key: (i: number) => string) => Object.fromEntries(Array.from({ length: count }, (_, i) => [key(i), i]));

const inputs: [string, () => Promise<TestResponse>][] = [
  ['a 1 MiB string field', () => t.request('POST', '/api/v1/trips', { token, body: { ...busanTrip, region: 'x'.repeat(1_000_000) } })],
  [
    'a string of control characters (six bytes each as JSON)',
    () => t.request('POST', '/api/v1/trips', { token, body: { ...busanTrip, region: '\u0001'.repeat(150_000) } }),
  ],
  ['a string of emoji (surrogate pairs)', () => t.request('POST', '/api/v1/trips', { token, body: { ...busanTrip, region: '😀'.repeat(100_000) } })],
  ['a 100 KiB unknown key', () => t.request('POST', '/api/v1/trips', { token, body: { ...busanTrip, ['k'.repeat(100_000)]: 1 } })],
  ['20,000 unknown fields', () => t.request('POST', '/api/v1/trips', { token, body: { ...busanTrip, ...manyKeys(20_000, (i) => `field${i}`) } })],
  [
    '50 unknown fields with escape-heavy names',
    () => t.request('POST', '/api/v1/trips', { token, body: { ...busanTrip, ...manyKeys(50, (i) => `${'\u0002'.repeat(200)}${i}`) } }),
  ],
  ['a deep value in a field', () => t.request('POST', '/api/v1/trips', { token, body: { ...busanTrip, region: nested(30) } })],
  ['a huge array', () => t.request('POST', '/api/v1/trips', { token, body: { ...busanTrip, themes: Array.from({ length: 100_000 }, (_, i) => `T${i}`) } })],
  [
    'a huge array of invalid items within maxItems',
    () => t.request('POST', '/api/v1/trips', { token, body: { ...busanTrip, themes: ['y'.repeat(100_000), 'z'.repeat(100_000)] } }),
  ],
  [
    'every field wrong at once',
    () => t.request('POST', '/api/v1/auth/dev-login', { body: { email: 'e'.repeat(300_000), name: 'n'.repeat(300_000), other: 'o'.repeat(300_000) } }),
  ],
  ['a 10 KiB path', () => t.request('GET', `/api/v1/${'p'.repeat(10_000)}`, { token })],
  ['a 10 KiB id', () => t.request('GET', `/api/v1/trips/${'9'.repeat(10_000)}`, { token })],
  ['a 10 KiB query value', () => t.request('GET', '/api/v1/trips', { token, query: { sort: 's'.repeat(10_000) } })],
  [
    'a query parameter repeated 5,000 times',
    () => t.request('GET', `/api/v1/trips?${Array.from({ length: 5000 }, (_, i) => `size=${i + 1}`).join('&')}`, { token }),
  ],
  ['a method not allowed on a long path', () => t.request('PUT', `/api/v1/trips/${'1'.repeat(5_000)}`, { token })],
];

describe('error bodies are at most 4 KiB', () => {
  it.each(inputs)('%s', async (_name, send) => {
    const res = await send();
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(Buffer.byteLength(res.text, 'utf8')).toBeLessThanOrEqual(MAX_BYTES);
    expect(errorOf(res).errors?.length ?? 0).toBeLessThanOrEqual(20);
  });

  it('echoes a long value cut to 100 characters, ending with the marker', async () => {
    const res = await t.request('POST', '/api/v1/trips', { token, body: { ...busanTrip, region: 'x'.repeat(1_000_000) } });
    expect(errorOf(res).errors).toEqual([
      { field: 'body.region', rejectedValue: `${'x'.repeat(86)}${TRUNCATION_MARKER}`, message: 'must NOT have more than 50 characters' },
    ]);
  });

  it('lists the first 20 failing fields and says how many there were', async () => {
    const res = await t.request('POST', '/api/v1/trips', { token, body: { ...busanTrip, ...manyKeys(30, (i) => `extra${i}`) } });
    expect(errorOf(res).errors).toHaveLength(20);
    expect(errorOf(res).message).toBe('Request validation failed. (30 problems; the first 20 are listed)');
  });
});

describe('truncation', () => {
  it('keeps a text within its limit and cuts a longer one to exactly the limit, marker included', () => {
    expect(truncateText('short', 10)).toBe('short');
    expect(truncateText('a'.repeat(30), 20)).toBe(`aaaaaa${TRUNCATION_MARKER}`);
    expect(truncateText('a'.repeat(30), 20)).toHaveLength(20);
  });

  it('never cuts a surrogate pair in half', () => {
    const cut = truncateText(`${'a'.repeat(5)}${'😀'.repeat(10)}`, 20);
    expect(cut.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(cut.slice(0, -TRUNCATION_MARKER.length)).toBe('aaaaa');
  });

  it('shows scalars and small arrays as they are, larger arrays and objects as the start of their JSON', () => {
    expect([boundedRejectedValue(12), boundedRejectedValue(null), boundedRejectedValue(true)]).toEqual([12, null, true]);
    expect(boundedRejectedValue(['HEALING', 'HEALING'])).toEqual(['HEALING', 'HEALING']);
    const big = boundedRejectedValue(Array.from({ length: 1_000_000 }, (_, i) => i));
    expect(big).toBe(`${JSON.stringify(Array.from({ length: 50 }, (_, i) => i)).slice(0, 86)}${TRUNCATION_MARKER}`);
    expect(boundedRejectedValue({ ['k'.repeat(500)]: 1 })).toBe(`{"${'k'.repeat(84)}${TRUNCATION_MARKER}`);
  });

  it('previews a value nested 100,000 levels deep without overflowing the stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(boundedRejectedValue(deep)).toBe(`${'['.repeat(86)}${TRUNCATION_MARKER}`);
  });

  it('fits a response of escape-heavy texts into 4 KiB by listing fewer fields', () => {
    const heavy = '\u0003'.repeat(10_000);
    const fitted = fitErrorResponse({
      timestamp: '2026-11-22T09:30:00Z',
      code: 'COMMON001',
      message: heavy,
      path: heavy,
      errors: Array.from({ length: 100 }, () => ({ field: heavy, rejectedValue: heavy, message: heavy })),
    });
    const bytes = Buffer.byteLength(JSON.stringify({ success: false, status: 400, data: fitted }), 'utf8');
    expect(bytes).toBeLessThanOrEqual(MAX_BYTES);
    expect(fitted.errors!.length).toBeLessThan(20);
    expect(fitted.message).toMatch(/\(100 problems; the first \d+ are listed\)$/);
  });
});
