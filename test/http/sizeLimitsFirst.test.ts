// Size limits (maxItems, maxLength, maxProperties) are enforced before any check whose cost grows
// faster than linearly: an oversized value is refused by the size guard, and the full validator
// (uniqueItems is quadratic in Ajv for these items) never sees it. Meanwhile /healthz keeps answering.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { operationValidators, type ValidateFunction } from '../../generated/validators.js';
import { busanTrip } from '../support/testApp.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { type ErrorEnvelope } from '../support/responseBody.js';

let t: TestServer;
let token: string;
beforeAll(async () => {
  t = await startTestServer();
  token = (await t.signIn('sizes@example.com')).accessToken;
});
afterAll(() => t.stop());

type Mutable = { body: ValidateFunction | null };
const createValidators = operationValidators.createTripPlanSession as unknown as Mutable;
const fullValidator = createValidators.body!;
let fullValidatorCalls = 0;

// Counts calls of the full body validator of createTripPlanSession, as the router reads it per request.
function countFullValidatorCalls(): void {
  fullValidatorCalls = 0;
  const counting = ((data: unknown, ctx?: unknown) => {
    fullValidatorCalls++;
    const ok = (fullValidator as (d: unknown, c?: unknown) => boolean)(data, ctx);
    counting.errors = fullValidator.errors;
    return ok;
  }) as ValidateFunction;
  createValidators.body = counting;
}
afterEach(() => {
  createValidators.body = fullValidator;
});

const manyThemes = (count: number) => Array.from({ length: count }, (_, i) => (i % 2 === 0 ? 'HEALING' : `THEME_${i}`));
const post = (body: unknown) =>
  fetch(`${t.url}/api/v1/trips`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('size limits come first', () => {
  it('refuses 50,000 themes with 400 COMMON001 from the size guard; the full validator never runs', async () => {
    countFullValidatorCalls();
    const res = await post({ ...busanTrip, themes: manyThemes(50_000) });
    const body = (await res.json()) as ErrorEnvelope;
    expect([res.status, body.data.code]).toEqual([400, 'COMMON001']);
    expect(body.data.errors).toEqual([expect.objectContaining({ field: 'body.themes', message: 'must NOT have more than 7 items' })]);
    expect(fullValidatorCalls).toBe(0);
  });

  it('refuses an over-long string the same way, listing only the values over a size limit', async () => {
    countFullValidatorCalls();
    const res = await post({ ...busanTrip, region: 'x'.repeat(200_000), duration: 0 });
    const body = (await res.json()) as ErrorEnvelope;
    expect(body.data.errors?.map((e) => [e.field, e.message])).toEqual([['body.region', 'must NOT have more than 50 characters']]);
    expect(fullValidatorCalls).toBe(0);
  });

  it('runs the full validator on a request within the size limits', async () => {
    countFullValidatorCalls();
    const res = await post({ ...busanTrip, themes: ['HEALING', 'HEALING'] });
    expect(res.status).toBe(400);
    expect(fullValidatorCalls).toBe(1);
  });

  it('keeps /healthz answering while oversized requests are processed', async () => {
    const oversized = Array.from({ length: 4 }, () => post({ ...busanTrip, themes: manyThemes(50_000) }));
    const probes = Array.from({ length: 8 }, () => fetch(`${t.url}/healthz`));
    const [answers, health] = await Promise.all([Promise.all(oversized), Promise.all(probes)]);
    expect(answers.map((r) => r.status)).toEqual([400, 400, 400, 400]);
    expect(health.map((r) => r.status)).toEqual(Array(8).fill(200));
  });
});
