// Cursor paging walks every item exactly once, in exact order, for each sort; foreign or unknown
// cursors are rejected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, errorOf } from '../support/responseBody.js';
import { busanTrip, startTestApp, type TestApp, type TestResponse } from '../support/testApp.js';

let t: TestApp;
let token: string;
const created: { id: number; startDate: string; createdAt: number }[] = [];

beforeAll(async () => {
  t = await startTestApp();
  token = (await t.signIn('pager@example.com')).accessToken;
  for (let i = 0; i < 23; i++) {
    // Start dates repeat (3 distinct) so ties are broken by id; creation instants repeat in pairs.
    const startDate = `2027-0${1 + (i % 3)}-15`;
    const res = await t.request('POST', '/api/v1/trips', { token, body: { ...busanTrip, startDate } });
    created.push({ id: bodyOf(res, 'createTripPlanSession', 201).data.tripPlanId, startDate, createdAt: t.now() });
    if (i % 2 === 1) t.advance(1000);
  }
});
afterAll(() => t.close());

async function walk(sort: string, size: number): Promise<{ ids: number[]; pages: number }> {
  const ids: number[] = [];
  let cursor: number | null = null;
  let pages = 0;
  do {
    const res: TestResponse = await t.request('GET', '/api/v1/trips', { token, query: { size, sort, ...(cursor ? { cursor } : {}) } });
    expect(res.status).toBe(200);
    const page = bodyOf(res, 'listTripPlans', 200).data;
    expect(page.size).toBe(page.content.length);
    expect(page.hasNext).toBe(page.nextCursor !== null);
    if (page.hasNext) expect(page.nextCursor).toBe(page.content.at(-1)!.id);
    ids.push(...page.content.map((p: { id: number }) => p.id));
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== null && pages < 100);
  return { ids, pages };
}

const expected = (key: 'createdAt' | 'startDate', direction: 1 | -1) =>
  [...created].sort((a, b) => (a[key] < b[key] ? -direction : a[key] > b[key] ? direction : (a.id - b.id) * direction)).map((p) => p.id);

describe('listTripPlans paging', () => {
  it.each([
    ['createdAt:desc', 'createdAt', -1],
    ['createdAt:asc', 'createdAt', 1],
    ['startDate:asc', 'startDate', 1],
    ['startDate:desc', 'startDate', -1],
  ] as const)('walks 23 plans in pages of 5 by %s: no gaps, no duplicates, exact order', async (sort, key, direction) => {
    const { ids, pages } = await walk(sort, 5);
    expect(pages).toBe(5);
    expect(ids).toEqual(expected(key, direction));
  });

  it('defaults to 10 per page, newest first', async () => {
    const res = await t.request('GET', '/api/v1/trips', { token });
    expect(bodyOf(res, 'listTripPlans', 200).data.content.map((p) => p.id)).toEqual(expected('createdAt', -1).slice(0, 10));
  });

  it('ends with hasNext false and nextCursor null on an exact multiple', async () => {
    const first = await t.request('GET', '/api/v1/trips', { token, query: { size: 23 } });
    expect(bodyOf(first, 'listTripPlans', 200).data).toMatchObject({ size: 23, hasNext: false, nextCursor: null });
  });

  it("rejects a cursor that is not one of the caller's plans with 400 COMMON001", async () => {
    const otherToken = (await t.signIn('other-pager@example.com')).accessToken;
    const res = await t.request('GET', '/api/v1/trips', { token: otherToken, query: { cursor: created[0]!.id } });
    expect(res.status).toBe(400);
    expect(errorOf(res).errors).toEqual([{ field: 'query.cursor', rejectedValue: created[0]!.id, message: 'is not the id of one of your trip plans' }]);
  });

  it('rejects a malformed sort', async () => {
    const res = await t.request('GET', '/api/v1/trips', { token, query: { sort: 'title:asc' } });
    expect(res.status).toBe(400);
    expect(errorOf(res).errors?.[0]?.field).toBe('query.sort');
  });

  it("shows nobody else's plans", async () => {
    const otherToken = (await t.signIn('empty@example.com')).accessToken;
    const res = await t.request('GET', '/api/v1/trips', { token: otherToken });
    expect(bodyOf(res, 'listTripPlans', 200).data).toEqual({ content: [], nextCursor: null, hasNext: false, size: 0 });
  });
});
