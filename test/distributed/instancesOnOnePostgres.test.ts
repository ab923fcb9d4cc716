// Two instances (two apps, as two processes would be) on one PostgreSQL database serve one
// consistent service: what one writes the other reads and edits, and a logout on one is refused on
// the other, because both read the database rather than anything of their own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase, type FreshPostgresDatabase } from '../support/postgres.js';
import { bodyOf, errorCodeOf } from '../support/responseBody.js';
import { busanTrip, startTestApp, type TestApp } from '../support/testApp.js';

let database: FreshPostgresDatabase;
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  database = await freshPostgresDatabase({ migrated: true });
  // Both start at once, as a scaled-out deployment does: the catalogue sync must not trip over the other's.
  [a, b] = await Promise.all([startTestApp({ DATABASE_URL: database.url }), startTestApp({ DATABASE_URL: database.url })]);
});

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await database.drop();
});

describe('two instances on one PostgreSQL database', () => {
  it('a plan created on one is listed, renamed and deleted on the other', async () => {
    const { accessToken: token } = await a.signIn('shared@example.com');
    const created = bodyOf(await a.request('POST', '/api/v1/trips', { token, body: busanTrip }), 'createTripPlanSession', 201).data;

    const listedOnB = bodyOf(await b.request('GET', '/api/v1/trips', { token }), 'listTripPlans', 200).data;
    expect(listedOnB.content.map((p) => p.id)).toEqual([created.tripPlanId]);

    expect((await b.request('PATCH', `/api/v1/trips/${created.tripPlanId}`, { token, body: { title: 'Renamed on B' } })).status).toBe(204);
    expect(bodyOf(await a.request('GET', `/api/v1/trips/${created.tripPlanId}`, { token }), 'getTripPlan', 200).data.title).toBe('Renamed on B');

    expect((await a.request('DELETE', `/api/v1/trips/${created.tripPlanId}`, { token })).status).toBe(204);
    expect((await b.request('GET', `/api/v1/trips/${created.tripPlanId}`, { token })).status).toBe(404);
  });

  it('one member signing in on both at once is one member', async () => {
    const [onA, onB] = await Promise.all([a.signIn('twice@example.com'), b.signIn('twice@example.com')]);
    const meOnA = bodyOf(await a.request('GET', '/api/v1/members/me', { token: onB.accessToken }), 'getMe', 200).data;
    const meOnB = bodyOf(await b.request('GET', '/api/v1/members/me', { token: onA.accessToken }), 'getMe', 200).data;
    expect(meOnA.id).toBe(meOnB.id);
  });

  it('a logout on one is refused on the other: access and refresh token alike', async () => {
    const tokens = await a.signIn('leaving@example.com');
    expect((await b.request('GET', '/api/v1/members/me', { token: tokens.accessToken })).status).toBe(200);

    expect((await a.request('POST', '/api/v1/auth/logout', { token: tokens.accessToken })).status).toBe(204);

    const afterLogout = await b.request('GET', '/api/v1/members/me', { token: tokens.accessToken });
    expect([afterLogout.status, errorCodeOf(afterLogout)]).toEqual([401, 'AUTH001']);
    const reissue = await b.request('POST', '/api/v1/auth/reissue', { body: { refreshToken: tokens.refreshToken } });
    expect([reissue.status, errorCodeOf(reissue)]).toEqual([401, 'AUTH004']);
  });

  it('a refresh token rotated on one cannot be replayed on the other after the reuse grace', async () => {
    const tokens = await a.signIn('rotating@example.com');
    expect((await a.request('POST', '/api/v1/auth/reissue', { body: { refreshToken: tokens.refreshToken } })).status).toBe(200);
    b.advance(10_001);
    const replay = await b.request('POST', '/api/v1/auth/reissue', { body: { refreshToken: tokens.refreshToken } });
    expect([replay.status, errorCodeOf(replay)]).toEqual([401, 'AUTH004']);
  });
});
