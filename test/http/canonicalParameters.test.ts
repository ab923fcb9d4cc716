// Integer path and query parameters are canonical decimal integers in range: `03`, `+3`, `3.0`,
// `0x3`, ` 3`, `3e0` or a number past 2^53 are 400 COMMON001 naming the parameter, even when they
// would coerce to an existing id. A documented query parameter holds one value (`style: form`,
// `explode: true`): given twice it is 400 COMMON001; undocumented query parameters are ignored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, errorCodeOf, errorOf } from '../support/responseBody.js';
import { busanTrip, startTestApp, type TestApp } from '../support/testApp.js';

let t: TestApp;
let token: string;
let admin: string;
let plan: { tripPlanId: number; chatRoomId: number };
let promptId: number;

beforeAll(async () => {
  t = await startTestApp();
  token = (await t.signIn('canonical@example.com')).accessToken;
  admin = (await t.signInAdmin('canonical-admin@example.com')).accessToken;
  // A few plans, so that the id under test has two digits and every variant below could name it.
  for (let i = 0; i < 11; i++) plan = bodyOf(await t.request('POST', '/api/v1/trips', { token, body: busanTrip }), 'createTripPlanSession', 201).data;
  const prompt = await t.request('POST', '/api/v1/admin/prompts', { token: admin, body: { promptType: 'SYSTEM', agentType: 'TRIP_AGENT', prompt: 'p' } });
  promptId = bodyOf(prompt, 'createPromptTemplate', 201).data.id;
});
afterAll(() => t.close());

const canonical = 'must be a canonical decimal integer: digits only, without sign, leading zeros, spaces, decimal point or exponent';
/** Spellings of `id` that parse to it (or near it) but are not its canonical decimal. */
const spellingsOf = (id: number) => [`0${id}`, `+${id}`, `${id}.0`, `0x${id.toString(16)}`, ` ${id}`, `${id} `, `${id}e0`, `${id / 10}e1`, '-0', ''];
const encodePath = (text: string) => encodeURIComponent(text);

describe('integer parameters are canonical decimal', () => {
  it('the canonical id works', async () => {
    expect((await t.request('GET', `/api/v1/trips/${plan.tripPlanId}`, { token })).status).toBe(200);
  });

  it.each(['path tripPlanId', 'path chatRoomId', 'path promptId', 'path dayNumber'])('%s: every other spelling is 400 COMMON001 naming it', async (which) => {
    const name = which.split(' ')[1]!;
    const urls: Record<string, (text: string) => [string, string]> = {
      tripPlanId: (x) => ['GET', `/api/v1/trips/${encodePath(x)}`],
      chatRoomId: (x) => ['GET', `/api/v1/chats/${encodePath(x)}/messages`],
      promptId: (x) => ['GET', `/api/v1/admin/prompts/${encodePath(x)}`],
      dayNumber: (x) => ['PATCH', `/api/v1/trips/${plan.tripPlanId}/daily-plans/${encodePath(x)}/scheduled-places`],
    };
    const id = { tripPlanId: plan.tripPlanId, chatRoomId: plan.chatRoomId, promptId, dayNumber: 10 }[name]!;
    for (const text of spellingsOf(id).filter((s) => s !== '')) {
      const [method, url] = urls[name]!(text);
      const res = await t.request(method, url, {
        token: name === 'promptId' ? admin : token,
        body: method === 'PATCH' ? { chatRoomId: plan.chatRoomId, visitOrderA: 1, visitOrderB: 2 } : undefined,
      });
      expect([res.status, errorCodeOf(res)], `${method} ${url}`).toEqual([400, 'COMMON001']);
      expect(errorOf(res).errors, url).toEqual([{ field: `path.${name}`, rejectedValue: text, message: canonical }]);
    }
  });

  it('query cursor and size: every other spelling is 400 COMMON001 naming it', async () => {
    for (const [name, id] of [
      ['cursor', plan.tripPlanId],
      ['size', 10],
    ] as const) {
      for (const text of spellingsOf(id)) {
        const res = await t.request('GET', '/api/v1/trips', { token, query: { [name]: text } });
        expect([res.status, errorOf(res).errors], `${name}=${JSON.stringify(text)}`).toEqual([
          400,
          [{ field: `query.${name}`, rejectedValue: text, message: canonical }],
        ]);
      }
    }
  });

  it('an id past 2^53 is refused as it was written, not as the number it rounds to', async () => {
    const res = await t.request('GET', '/api/v1/trips/9007199254740993', { token });
    expect(errorOf(res).errors).toEqual([{ field: 'path.tripPlanId', rejectedValue: '9007199254740993', message: 'must be <= 9007199254740991' }]);
  });
});

describe('query parameters are given at most once', () => {
  it.each([
    ['size=1&size=5', 'query.size', ['1', '5']],
    ['size=5&size=5', 'query.size', ['5', '5']],
    ['sort=createdAt:asc&sort=startDate:desc', 'query.sort', ['createdAt:asc', 'startDate:desc']],
    ['cursor=1&size=2&cursor=1', 'query.cursor', ['1', '1']],
  ])('?%s is 400 COMMON001 naming the parameter', async (query, field, values) => {
    const res = await t.request('GET', `/api/v1/trips?${query}`, { token });
    expect([res.status, errorCodeOf(res)]).toEqual([400, 'COMMON001']);
    expect(errorOf(res).errors).toEqual([{ field, rejectedValue: values, message: 'must be given at most once' }]);
  });

  it('ignores query parameters the spec does not list, repeated or not', async () => {
    const res = await t.request('GET', '/api/v1/trips?size=2&utm_source=x&utm_source=y&_=123', { token });
    expect(res.status).toBe(200);
    expect(bodyOf(res, 'listTripPlans', 200).data.size).toBe(2);
  });
});
