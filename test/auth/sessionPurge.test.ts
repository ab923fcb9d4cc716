// Ended sessions do not pile up. Every SESSION_PURGE_INTERVAL_MINUTES the
// sessions that expired or were revoked more than SESSION_RETENTION_DAYS ago are deleted; live
// ones stay; a refresh token of a purged session still answers 401 AUTH004. The clock is the app's
// injected one; the interval timer is vitest's fake one.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorCodeOf } from '../support/responseBody.js';
import { startTestApp, type TestApp } from '../support/testApp.js';

const DAY = 86_400_000;
const INTERVAL = 60 * 60_000;
let t: TestApp;

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  t = await startTestApp({ SESSION_RETENTION_DAYS: '2', SESSION_PURGE_INTERVAL_MINUTES: '60', REFRESH_TOKEN_TTL_SECONDS: String(7 * 24 * 3600) });
});
afterEach(async () => {
  await t.close();
  vi.useRealTimers();
});

const sessionCount = async () => {
  const { authSessions } = t.app.services.db.t;
  return (await t.app.services.db.run((q) => q.select({ id: authSessions.id }).from(authSessions).execute())).length;
};
const reissue = (refreshToken: string) => t.request('POST', '/api/v1/auth/reissue', { body: { refreshToken } });

async function purgeTick(): Promise<void> {
  vi.advanceTimersByTime(INTERVAL);
  await t.app.sessionPurge.idle();
}

describe('session purge (SESSION_RETENTION_DAYS, SESSION_PURGE_INTERVAL_MINUTES)', () => {
  it('deletes a revoked session once it has been over for the retention, and its refresh token still answers 401 AUTH004', async () => {
    const loggedOut = await t.signIn('gone@example.com');
    const live = await t.signIn('here@example.com');
    await t.request('POST', '/api/v1/auth/logout', { token: loggedOut.accessToken });

    t.advance(1 * DAY);
    await purgeTick();
    expect(await sessionCount(), 'kept within the retention').toBe(2);

    t.advance(1 * DAY + 1);
    await purgeTick();
    expect(await sessionCount()).toBe(1);
    const replay = await reissue(loggedOut.refreshToken);
    expect([replay.status, errorCodeOf(replay)]).toEqual([401, 'AUTH004']);
    expect((await reissue(live.refreshToken)).status).toBe(200);
  });

  it('deletes an expired session retention days after it expired, not before', async () => {
    const expiring = await t.signIn('expiring@example.com');
    t.advance(7 * DAY + 1 * DAY);
    await purgeTick();
    expect(await sessionCount(), 'expired, still within the retention').toBe(1);
    t.advance(1 * DAY + 1);
    await purgeTick();
    expect(await sessionCount()).toBe(0);
    expect(errorCodeOf(await reissue(expiring.refreshToken))).toBe('AUTH004');
  });

  it('purges a backlog larger than one batch in one run', async () => {
    await t.signIn('bulk@example.com');
    const db = t.app.services.db;
    const { memberId, expiresAt } = (await db.run((q) => q.select().from(db.t.authSessions).execute()))[0]!;
    const bulk = Array.from({ length: 1100 }, (_v, i) => ({ id: `bulk-${i}`, memberId, refreshJti: `jti-${i}`, createdAt: t.now(), expiresAt }));
    await db.run(async (q) => void (await q.insert(db.t.authSessions).values(bulk)));
    expect(await sessionCount()).toBe(1101);
    t.advance(7 * DAY + 2 * DAY + 1);
    await purgeTick();
    expect(await sessionCount()).toBe(0);
  });
});
