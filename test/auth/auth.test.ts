// Tokens: rotation, reuse detection, logout, refresh tokens refused as access tokens, expiry.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sign } from 'hono/jwt';
import type { JWTPayload } from 'hono/utils/jwt/types';
import { bodyOf, errorCodeOf } from '../support/responseBody.js';
import { startTestApp, type TestApp } from '../support/testApp.js';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(() => t.close());

const me = (token: string) => t.request('GET', '/api/v1/members/me', { token });
const reissue = (refreshToken: string) => t.request('POST', '/api/v1/auth/reissue', { body: { refreshToken } });

describe('auth', () => {
  it('dev-login creates the member once and names it from the email by default', async () => {
    const first = await t.signIn('Ji.Woo@Example.com');
    const second = await t.signIn('ji.woo@example.com');
    const a = bodyOf(await me(first.accessToken), 'getMe', 200).data;
    const b = bodyOf(await me(second.accessToken), 'getMe', 200).data;
    expect(a.id).toBe(b.id);
    expect(a).toMatchObject({ email: 'ji.woo@example.com', name: 'Ji.Woo', provider: 'DEV', role: 'MEMBER', imageUrl: null });
    expect(bodyOf(await t.request('GET', '/api/v1/members/me/name', { token: first.accessToken }), 'getMyName', 200).data).toEqual({ name: 'Ji.Woo' });
  });

  it('rotates the refresh token: the new pair works, the old refresh token is dead', async () => {
    const pair = await t.signIn('rotate@example.com');
    const next = await reissue(pair.refreshToken);
    const tokens = bodyOf(next, 'reissueToken', 200).data;
    expect(tokens.accessTokenExpiresIn).toBe(3600);
    expect((await me(tokens.accessToken)).status).toBe(200);
    const third = await reissue(tokens.refreshToken);
    expect(third.status).toBe(200);
  });

  it('revokes the whole session when a rotated refresh token is used again after the reuse grace', async () => {
    const pair = await t.signIn('victim@example.com');
    const rotated = bodyOf(await reissue(pair.refreshToken), 'reissueToken', 200).data;
    t.advance(10_001);
    const replay = await reissue(pair.refreshToken);
    expect([replay.status, errorCodeOf(replay)]).toEqual([401, 'AUTH004']);
    // Everything of that session is dead now, including the legitimate latest pair.
    expect(errorCodeOf(await reissue(rotated.refreshToken))).toBe('AUTH004');
    expect(errorCodeOf(await me(rotated.accessToken))).toBe('AUTH001');
    expect(errorCodeOf(await me(pair.accessToken))).toBe('AUTH001');
    // Other sessions of the same member are not affected.
    const elsewhere = await t.signIn('victim@example.com');
    expect((await me(elsewhere.accessToken)).status).toBe(200);
  });

  it('logout ends the session: its access and refresh tokens stop working', async () => {
    const pair = await t.signIn('leaver@example.com');
    const other = await t.signIn('leaver@example.com');
    expect((await t.request('POST', '/api/v1/auth/logout', { token: pair.accessToken })).status).toBe(204);
    expect(errorCodeOf(await me(pair.accessToken))).toBe('AUTH001');
    expect(errorCodeOf(await reissue(pair.refreshToken))).toBe('AUTH004');
    expect((await me(other.accessToken)).status).toBe(200);
  });

  it('never accepts a refresh token as an access token, nor an access token for reissue', async () => {
    const pair = await t.signIn('types@example.com');
    expect(errorCodeOf(await me(pair.refreshToken))).toBe('AUTH001');
    expect(errorCodeOf(await reissue(pair.accessToken))).toBe('AUTH004');
  });

  it('expires access tokens after an hour (AUTH002) while the refresh token still works', async () => {
    const pair = await t.signIn('clock@example.com');
    t.advance(3600 * 1000 - 1000);
    expect((await me(pair.accessToken)).status).toBe(200);
    t.advance(2000);
    expect(errorCodeOf(await me(pair.accessToken))).toBe('AUTH002');
    const next = bodyOf(await reissue(pair.refreshToken), 'reissueToken', 200).data;
    expect((await me(next.accessToken)).status).toBe(200);
  });

  it('expires refresh tokens after 30 days', async () => {
    const pair = await t.signIn('month@example.com');
    t.advance(30 * 24 * 3600 * 1000 + 1000);
    expect(errorCodeOf(await reissue(pair.refreshToken))).toBe('AUTH004');
  });

  it('rejects tokens signed with another secret, with alg none, or with another algorithm', async () => {
    const pair = await t.signIn('forger@example.com');
    const claims = JSON.parse(Buffer.from(pair.accessToken.split('.')[1]!, 'base64url').toString()) as JWTPayload;
    const otherSecret = await sign(claims, 'another-secret-another-secret-0123456', 'HS256');
    const hs512 = await sign(claims, 'test-secret-test-secret-test-secret-0123', 'HS512');
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${pair.accessToken.split('.')[1]}.`;
    for (const token of [otherSecret, hs512, none, `${pair.accessToken}x`]) {
      expect(errorCodeOf(await me(token))).toBe('AUTH001');
    }
  });

  it('answers AUTH011 without a header and AUTH001 for a header that is not Bearer', async () => {
    expect(errorCodeOf(await t.request('GET', '/api/v1/members/me'))).toBe('AUTH011');
    expect(errorCodeOf(await t.request('GET', '/api/v1/members/me', { headers: { authorization: 'Basic dXNlcjpwYXNz' } }))).toBe('AUTH001');
  });
});
