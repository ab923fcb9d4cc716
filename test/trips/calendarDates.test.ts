// Dates are `YYYY-MM-DD` with a four-digit year and a day that exists, and so is a trip's last day:
// a start date whose trip would end after 9999-12-31 is refused instead of being stored with a
// five-digit year (`+010000-…`). The spec says so with a pattern as well as `format: date`, so a
// tool that treats formats as annotations still rejects what the pattern can see.
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonAt, objectOrEmpty, readYaml } from '../../conformance/specModel/index.js';
import { bodyOf, errorCodeOf, errorOf } from '../support/responseBody.js';
import { busanTrip, startTestApp, type TestApp } from '../support/testApp.js';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp();
  token = (await t.signIn('dates@example.com')).accessToken;
});
afterAll(() => t.close());

const create = (startDate: string, duration = 3) => t.request('POST', '/api/v1/trips', { token, body: { ...busanTrip, startDate, duration } });

describe('calendar dates', () => {
  it.each([
    '10000-01-01',
    '+010000-01-01',
    '2026-02-30',
    '2027-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-04-31',
    '2026-1-05',
    '26-01-05',
    '2026-01-05T00:00:00Z',
    '２０２６-01-05',
  ])('startDate %s is 400 COMMON001', async (startDate) => {
    const res = await create(startDate);
    expect([res.status, errorCodeOf(res)]).toEqual([400, 'COMMON001']);
    expect(errorOf(res).errors?.[0]?.field).toBe('body.startDate');
  });

  it('accepts real days, 29 February of a leap year included', async () => {
    for (const startDate of ['2028-02-29', '2026-12-31', '0001-01-01']) expect((await create(startDate, 1)).status, startDate).toBe(201);
  });

  it('refuses a trip that would end after 9999-12-31, and keeps one that ends on it', async () => {
    const tooLate = await create('9999-12-31', 2);
    expect(errorOf(tooLate).errors).toEqual([
      { field: 'body.startDate', rejectedValue: '9999-12-31', message: 'the trip must end by 9999-12-31 (startDate + duration - 1)' },
    ]);
    const lastDay = await create('9999-12-30', 2);
    expect(lastDay.status).toBe(201);
    const stored = bodyOf(
      await t.request('GET', `/api/v1/trips/${bodyOf(lastDay, 'createTripPlanSession', 201).data.tripPlanId}`, { token }),
      'getTripPlan',
      200,
    );
    expect([stored.data.startDate, stored.data.endDate]).toEqual(['9999-12-30', '9999-12-31']);
  });

  it('LocalDate in openapi.yaml rejects five-digit years and impossible months by its pattern alone', () => {
    const localDate = objectOrEmpty(jsonAt(readYaml(path.resolve(import.meta.dirname, '../../specs/openapi.yaml')), 'components', 'schemas', 'LocalDate'));
    expect(localDate.format).toBe('date');
    // An Ajv without formats, as a tool that treats `format` as an annotation would read it.
    const validate = new Ajv2020({ validateFormats: false }).compile({ type: localDate.type, maxLength: localDate.maxLength, pattern: localDate.pattern });
    expect(['10000-01-01', '+010000-01', '2026-13-01', '2026-00-01', '2026-01-32', '2026-1-1'].filter((d) => validate(d))).toEqual([]);
    expect(['2026-12-24', '2028-02-29', '9999-12-31'].every((d) => validate(d))).toBe(true);
  });
});
