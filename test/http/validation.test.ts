// Every validation rule of the request schemas answers 400 COMMON001 listing each failing field
// (path, rejected value, message); malformed bodies are COMMON002.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, errorOf } from '../support/responseBody.js';
import { busanTrip, startTestApp, type TestApp } from '../support/testApp.js';

let t: TestApp;
let token: string;
let admin: string;
let plan: { tripPlanId: number; chatRoomId: number };

beforeAll(async () => {
  t = await startTestApp();
  token = (await t.signIn('validator@example.com')).accessToken;
  admin = (await t.signInAdmin('admin@example.com')).accessToken;
  plan = bodyOf(await t.request('POST', '/api/v1/trips', { token, body: busanTrip }), 'createTripPlanSession', 201).data;
});
afterAll(() => t.close());

const createWith = (changes: Record<string, unknown>, drop: string[] = []) => {
  const body: Record<string, unknown> = { ...busanTrip, ...changes };
  for (const key of drop) delete body[key];
  return t.request('POST', '/api/v1/trips', { token, body });
};

describe('TripPlanCreateRequest', () => {
  it.each<[name: string, changes: Record<string, unknown>, field: string, message: string]>([
    ['themes empty', { themes: [] }, 'body.themes', 'must NOT have fewer than 1 items'],
    [
      'themes over 7',
      { themes: ['FAMOUS_SPOT', 'HEALING', 'SNS_HOTSPOT', 'EXPERIENCE_ACTIVITY', 'CULTURE_ART', 'SHOPPING', 'RESTAURANT', 'HEALING'] },
      'body.themes',
      'must NOT have more than 7 items',
    ],
    ['themes repeated', { themes: ['HEALING', 'HEALING'] }, 'body.themes', 'must NOT have duplicate items (items ## 0 and 1 are identical)'],
    [
      'unknown theme',
      { themes: ['BEACH'] },
      'body.themes[0]',
      'must be one of FAMOUS_SPOT, HEALING, SNS_HOTSPOT, EXPERIENCE_ACTIVITY, CULTURE_ART, SHOPPING, RESTAURANT',
    ],
    ['impossible date', { startDate: '2026-02-30' }, 'body.startDate', 'must match format "date"'],
    ['date with time', { startDate: '2026-12-24T10:00:00Z' }, 'body.startDate', 'must NOT have more than 10 characters'],
    ['duration 0', { duration: 0 }, 'body.duration', 'must be >= 1'],
    ['duration 31', { duration: 31 }, 'body.duration', 'must be <= 30'],
    ['duration fractional', { duration: 1.5 }, 'body.duration', 'must be integer'],
    ['duration as string', { duration: '3' }, 'body.duration', 'must be integer'],
    ['region blank', { region: '   ' }, 'body.region', 'must match pattern "\\S"'],
    ['region over 50', { region: 'x'.repeat(51) }, 'body.region', 'must NOT have more than 50 characters'],
    ['peopleCount 0', { peopleCount: 0 }, 'body.peopleCount', 'must be >= 1'],
    ['peopleCount 51', { peopleCount: 51 }, 'body.peopleCount', 'must be <= 50'],
    ['unknown transportation', { transportation: 'BIKE' }, 'body.transportation', 'must be one of NONE, WALKING, PUBLIC_TRANSIT, CAR'],
    ['unknown field', { budget: 100 }, 'body.budget', 'is not a known field'],
  ])('%s', async (_name, changes, field, message) => {
    const res = await createWith(changes);
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe('COMMON001');
    const value = Object.values(changes)[0];
    const rejectedValue = field.endsWith('[0]') ? (value as unknown[])[0] : value;
    // An array whose JSON is over 100 characters is echoed as the start of that JSON and a marker.
    const shown =
      Array.isArray(rejectedValue) && JSON.stringify(rejectedValue).length > 100
        ? `${JSON.stringify(rejectedValue).slice(0, 86)}...[truncated]`
        : rejectedValue;
    expect(errorOf(res).errors).toContainEqual({ field, rejectedValue: shown, message });
  });

  it('lists every failing field at once, missing ones with a null rejected value', async () => {
    const res = await createWith({ duration: 0, peopleCount: 99 }, ['region', 'themes']);
    expect(errorOf(res).errors).toEqual(
      expect.arrayContaining([
        { field: 'body.region', rejectedValue: null, message: 'is required' },
        { field: 'body.themes', rejectedValue: null, message: 'is required' },
        { field: 'body.duration', rejectedValue: 0, message: 'must be >= 1' },
        { field: 'body.peopleCount', rejectedValue: 99, message: 'must be <= 50' },
      ]),
    );
    expect(errorOf(res).errors).toHaveLength(4);
  });

  it('defaults transportation to PUBLIC_TRANSIT and derives title and end date', async () => {
    const res = await createWith({}, ['transportation']);
    const created = bodyOf(res, 'createTripPlanSession', 201).data;
    const detail = bodyOf(await t.request('GET', `/api/v1/trips/${created.tripPlanId}`, { token }), 'getTripPlan', 200).data;
    expect(detail).toMatchObject({
      transportation: 'PUBLIC_TRANSIT',
      title: 'Busan in 3 days',
      startDate: '2026-12-24',
      endDate: '2026-12-26',
      generationStatus: 'PENDING',
      isCompleted: false,
    });
  });
});

describe('other request bodies', () => {
  it.each([
    ['PATCH', () => `/api/v1/trips/${plan.tripPlanId}`, { title: '' }, 'body.title', 'must NOT have fewer than 1 characters'],
    ['PATCH', () => `/api/v1/trips/${plan.tripPlanId}`, { title: ' \t ' }, 'body.title', 'must match pattern "\\S"'],
    ['PATCH', () => `/api/v1/trips/${plan.tripPlanId}`, { title: 'x'.repeat(101) }, 'body.title', 'must NOT have more than 100 characters'],
    [
      'PATCH',
      () => `/api/v1/trips/${plan.tripPlanId}/daily-plans/1/scheduled-places`,
      { chatRoomId: 'ROOM', visitOrderA: 0, visitOrderB: 1 },
      'body.visitOrderA',
      'must be >= 1',
    ],
    [
      'PATCH',
      () => `/api/v1/trips/${plan.tripPlanId}/daily-plans/1/scheduled-places`,
      { chatRoomId: 'ROOM', visitOrderA: 2, visitOrderB: 2 },
      'body.visitOrderB',
      'must differ from visitOrderA',
    ],
    ['POST', () => '/api/v1/auth/dev-login', { email: 'not-an-email' }, 'body.email', 'must match format "email"'],
    ['POST', () => '/api/v1/auth/reissue', { refreshToken: '' }, 'body.refreshToken', 'must NOT have fewer than 1 characters'],
  ])('%s %s rejects %j', async (method, url, body, field, message) => {
    const withRoom = 'chatRoomId' in body ? { ...body, chatRoomId: plan.chatRoomId } : body;
    const res = await t.request(method, url(), { token, body: withRoom });
    expect(res.status).toBe(400);
    expect(errorOf(res).errors).toContainEqual(expect.objectContaining({ field, message }));
  });

  it('requires at least one field to update a prompt template', async () => {
    const created = bodyOf(
      await t.request('POST', '/api/v1/admin/prompts', { token: admin, body: { promptType: 'SYSTEM', agentType: 'TRIP_AGENT', prompt: 'p' } }),
      'createPromptTemplate',
      201,
    ).data;
    const res = await t.request('PATCH', `/api/v1/admin/prompts/${created.id}`, { token: admin, body: {} });
    expect(res.status).toBe(400);
    expect(errorOf(res).errors?.[0]?.field).toBe('body');
  });
});

describe('parameters', () => {
  const canonical = 'must be a canonical decimal integer: digits only, without sign, leading zeros, spaces, decimal point or exponent';
  it.each([
    ['/api/v1/trips/abc', 'path.tripPlanId', 'abc', canonical],
    ['/api/v1/trips/0', 'path.tripPlanId', 0, 'must be >= 1'],
    ['/api/v1/trips/9007199254740992', 'path.tripPlanId', 9007199254740992, 'must be <= 9007199254740991'],
    ['/api/v1/trips/1.5', 'path.tripPlanId', '1.5', canonical],
  ])('GET %s', async (url, field, rejectedValue, message) => {
    const res = await t.request('GET', url, { token });
    expect(res.status).toBe(400);
    expect(errorOf(res).errors).toEqual([{ field, rejectedValue, message }]);
  });

  it('checks size and cursor bounds on list operations', async () => {
    for (const [url, query, field] of [
      ['/api/v1/trips', { size: 101 }, 'query.size'],
      ['/api/v1/trips', { cursor: -1 }, 'query.cursor'],
      [`/api/v1/chats/${plan.chatRoomId}/messages`, { size: 0 }, 'query.size'],
    ] as const) {
      const res = await t.request('GET', url, { token, query });
      expect(res.status, url).toBe(400);
      expect(errorOf(res).errors?.[0]?.field).toBe(field);
    }
  });
});

describe('malformed bodies', () => {
  it('is COMMON002 for broken JSON, a non-JSON content type and a missing body', async () => {
    const broken = await t.request('POST', '/api/v1/trips', { token, rawBody: '{"themes": [', headers: { 'content-type': 'application/json' } });
    const form = await t.request('POST', '/api/v1/trips', {
      token,
      rawBody: 'themes=HEALING',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const empty = await t.request('POST', '/api/v1/trips', { token });
    for (const res of [broken, form, empty]) expect([res.status, errorOf(res).code]).toEqual([400, 'COMMON002']);
  });

  it('is COMMON001 when the JSON is not an object', async () => {
    const res = await t.request('POST', '/api/v1/trips', { token, body: [1, 2] });
    expect([res.status, errorOf(res).code]).toEqual([400, 'COMMON001']);
  });
});
