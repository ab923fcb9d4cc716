// dev-login never grants ADMIN. Roles belong to sessions and come from a real
// sign-in (ADMIN_EMAILS, or the operator's token tool); a dev-login with an admin's address, even
// one listed in ADMIN_EMAILS, is a MEMBER session.
import { afterEach, describe, expect, it } from 'vitest';
import { bodyOf, errorCodeOf } from '../support/responseBody.js';
import { startTestApp, type TestApp } from '../support/testApp.js';

let t: TestApp;
afterEach(() => t.close());

const adminOnly = (token: string) => t.request('GET', '/api/v1/admin/prompts', { token });
const me = async (token: string) => bodyOf(await t.request('GET', '/api/v1/members/me', { token }), 'getMe', 200).data;

describe('dev-login never grants ADMIN', () => {
  it('a dev-login with the address of a member who holds an ADMIN session is a MEMBER session', async () => {
    t = await startTestApp();
    const admin = await t.signInAdmin('boss@example.com');
    expect((await adminOnly(admin.accessToken)).status).toBe(200);
    expect((await me(admin.accessToken)).role).toBe('ADMIN');

    const viaDevLogin = await t.signIn('boss@example.com');
    expect((await me(viaDevLogin.accessToken)).role).toBe('MEMBER');
    expect(errorCodeOf(await adminOnly(viaDevLogin.accessToken))).toBe('COMMON403');
    // The admin's own session keeps its role.
    expect((await adminOnly(admin.accessToken)).status).toBe(200);
  });

  it('a dev-login with an address listed in ADMIN_EMAILS is a MEMBER session', async () => {
    t = await startTestApp({ ADMIN_EMAILS: 'boss@example.com' });
    const viaDevLogin = await t.signIn('Boss@Example.com');
    expect((await me(viaDevLogin.accessToken)).role).toBe('MEMBER');
    expect((await adminOnly(viaDevLogin.accessToken)).status).toBe(403);
  });

  it('the role survives token reissue: an ADMIN session stays ADMIN, a dev-login session stays MEMBER', async () => {
    t = await startTestApp();
    const admin = await t.signInAdmin('boss@example.com');
    const member = await t.signIn('boss@example.com');
    const reissue = async (refreshToken: string) =>
      bodyOf(await t.request('POST', '/api/v1/auth/reissue', { body: { refreshToken } }), 'reissueToken', 200).data.accessToken;
    expect((await adminOnly(await reissue(admin.refreshToken))).status).toBe(200);
    expect((await adminOnly(await reissue(member.refreshToken))).status).toBe(403);
  });
});
