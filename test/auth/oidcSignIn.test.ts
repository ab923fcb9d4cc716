// OpenID Connect sign-in end to end without the internet: the local provider (oidc-provider,
// tools/idp) on 127.0.0.1, the service in process (or on a real port for STOMP), and a
// cookie-aware scripted browser through the whole redirect chain (openapi.yaml: startOidcSignIn,
// completeOidcSignIn, exchangeOidcSignInCode).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/openapi.js';
import { startLocalIdentityProvider } from '../../tools/idp/localIdentityProvider.js';
import { startServer } from '../../src/composition/server.js';
import { freshPostgresDatabase } from '../support/postgres.js';
import { testEngine } from '../support/testDatabase.js';
import { freePort } from '../support/oidcHarness.js';
import { oidcTestServices } from '../support/oidcTestServices.js';
import { scriptedBrowser, type ScriptedBrowser } from '../support/scriptedBrowser.js';
import { connectStomp, wsUrl } from '../support/stompTestClient.js';
import { busanTrip, type TestApp } from '../support/testApp.js';

type Schemas = components['schemas'];
/** What the calls below answer: the envelope of a success or of an error. */
type Answer<T> = { data: T & Partial<Schemas['ErrorResponse']> };
type TokensAnswer = Answer<Schemas['TokenResponse']>;
type MemberAnswer = Answer<Schemas['MemberResponse']>;

const oidc = oidcTestServices();
const { service } = oidc;

function browserOn(t: TestApp): ScriptedBrowser {
  return scriptedBrowser(oidc.harness.origin, (pathAndQuery, init) => Promise.resolve(t.http.request(pathAndQuery, init)));
}

/** The one-time code of a callback's redirect, and where it points. */
function codeOf(response: Response): { code: string; target: string } {
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location')!);
  const code = new URLSearchParams(location.hash.slice(1)).get('oidcCode');
  expect(code).toMatch(/^[\w-]{43}$/);
  return { code: code!, target: `${location.origin}${location.pathname}${location.search}` };
}

async function errorOf(response: Response): Promise<[number, string]> {
  const body = (await response.json()) as { data: { code: string } };
  return [response.status, body.data.code];
}

/** The answer of an exchange: its status and envelope. */
async function answerOf<T>(response: Response): Promise<{ status: number; body: Answer<T> }> {
  return { status: response.status, body: (await response.json()) as Answer<T> };
}

/** Signs `login` in through the provider and exchanges the code as the page would: the token pair. */
async function signInAs(t: TestApp, login: string): Promise<{ accessToken: string; refreshToken: string }> {
  const browser = browserOn(t);
  const { code } = codeOf(await browser.open(await browser.signInAtProvider(login)));
  const exchanged = await answerOf<Schemas['TokenResponse']>(await browser.exchange(code));
  expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);
  return exchanged.body.data;
}

/** A verifier as a page makes one, and its S256 challenge. */
function pkcePair(): { verifier: string; challenge: string } {
  const verifier = crypto.randomBytes(32).toString('base64url');
  return { verifier, challenge: crypto.createHash('sha256').update(verifier).digest('base64url') };
}

/** Changes the pending sign-in of `browser` in the database (what an attacker without it cannot do). */
async function tamperPendingLogin(t: TestApp, browser: ScriptedBrowser, change: { codeVerifier?: string; nonce?: string }): Promise<void> {
  const { db } = t.app.services;
  const id = crypto.createHash('sha256').update(browser.serviceCookie('oidc_login')!).digest('base64url');
  const changed = await db.run((q) => q.update(db.t.oidcPendingLogins).set(change).where(eq(db.t.oidcPendingLogins.id, id)).returning());
  expect(changed).toHaveLength(1);
}

describe('sign-in with the provider', () => {
  it('the full redirect chain signs the member in; the one-time code gives the token pair once', async () => {
    const t = await service();
    const browser = browserOn(t);
    const callback = await browser.signInAtProvider('alice', '/trips?view=list');
    expect(callback.searchParams.get('code')).toBeTruthy();
    expect(browser.serviceCookie('oidc_login')).toBeDefined();

    const done = await browser.open(callback);
    const { code, target } = codeOf(done);
    expect(target).toBe(`${oidc.harness.origin}/trips?view=list`);
    expect(done.headers.get('set-cookie'), 'the cookie now binds the code, for its 60 seconds').toMatch(
      /^oidc_login=[\w-]{43}; Path=\/api\/v1\/auth\/oidc; Max-Age=60; HttpOnly; SameSite=Lax$/,
    );

    const exchanged = await answerOf<Schemas['TokenResponse']>(await browser.exchange(code));
    expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);
    expect(browser.serviceCookie('oidc_login'), 'removed by the exchange').toBeUndefined();
    const me = await t.request<MemberAnswer>('GET', '/api/v1/members/me', { token: exchanged.body.data.accessToken });
    expect(me.body.data).toMatchObject({ email: 'alice@example.com', name: 'Alice Kim', provider: 'OIDC', role: 'MEMBER' });

    const again = await t.request<TokensAnswer>('POST', '/api/v1/auth/oidc/token', { body: { code } });
    expect([again.status, again.body.data.code]).toEqual([400, 'AUTH027']);
  });

  it("with codeChallenge, the page's verifier exchanges the code, from any origin's page (no cookie needed)", async () => {
    const t = await service();
    const browser = browserOn(t);
    const { verifier, challenge } = pkcePair();
    const { code } = codeOf(await browser.open(await browser.signInAtProvider('alice', '/', challenge)));
    const exchanged = await t.request<TokensAnswer>('POST', '/api/v1/auth/oidc/token', { body: { code, codeVerifier: verifier } });
    expect(exchanged.status, exchanged.text).toBe(200);
    expect((await t.request<MemberAnswer>('GET', '/api/v1/members/me', { token: exchanged.body.data.accessToken })).body.data.email).toBe('alice@example.com');
  });

  it('the authorization request uses PKCE S256, state and nonce, and the pending sign-in cookie is httpOnly', async () => {
    const t = await service();
    const start = await t.request<Answer<unknown>>('GET', '/api/v1/auth/oidc/login');
    expect(start.status).toBe(302);
    const authorization = new URL(start.headers.get('location')!);
    expect(authorization.origin).toBe(oidc.harness.idp.issuer);
    for (const name of ['state', 'nonce', 'code_challenge']) expect(authorization.searchParams.get(name)).toMatch(/^[\w-]{20,}$/);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('scope')).toBe('openid email profile');
    expect(start.headers.get('set-cookie')).toMatch(/^oidc_login=[\w-]{43}; Path=\/api\/v1\/auth\/oidc; Max-Age=600; HttpOnly; SameSite=Lax$/);
  });

  it('a member is its provider account: the second sign-in finds it and refreshes name and e-mail; a dev-login of the same e-mail is someone else', async () => {
    const t = await service();
    const local = await t.signIn('carol@example.com', 'Carol Local');
    oidc.harness.idp.accounts.set('carol', { email: 'carol@example.com', emailVerified: true, name: 'Carol' });
    const first = await t.request<MemberAnswer>('GET', '/api/v1/members/me', { token: (await signInAs(t, 'carol')).accessToken });
    oidc.harness.idp.accounts.set('carol', { email: 'carol.new@example.com', emailVerified: true, name: 'Carol Renamed' });
    const second = await t.request<MemberAnswer>('GET', '/api/v1/members/me', { token: (await signInAs(t, 'carol')).accessToken });
    const localMe = await t.request<MemberAnswer>('GET', '/api/v1/members/me', { token: local.accessToken });

    expect(second.body.data.id).toBe(first.body.data.id);
    expect(second.body.data).toMatchObject({ email: 'carol.new@example.com', name: 'Carol Renamed', provider: 'OIDC' });
    expect(localMe.body.data).toMatchObject({ email: 'carol@example.com', name: 'Carol Local', provider: 'DEV' });
    expect(localMe.body.data.id).not.toBe(first.body.data.id);
  });

  it('returnTo: a path or an allowed origin; another origin, a scheme-relative URL or a fragment is 400 COMMON001', async () => {
    const t = await service({ OIDC_RETURN_TO_ORIGINS: 'https://app.example.com' });
    expect((await t.request<Answer<unknown>>('GET', '/api/v1/auth/oidc/login', { query: { returnTo: 'https://app.example.com/signed-in' } })).status).toBe(302);
    for (const returnTo of ['https://evil.example.com/', '//evil.example.com/x', '/\\evil.example.com', '/page#x', 'javascript:alert(1)']) {
      const res = await t.request<Answer<unknown>>('GET', '/api/v1/auth/oidc/login', { query: { returnTo } });
      expect([res.status, res.body.data.code, res.body.data.errors?.[0]?.field], returnTo).toEqual([400, 'COMMON001', 'query.returnTo']);
    }
  });
});

describe('refused sign-ins', () => {
  it("a state other than the sign-in's is 400 AUTH022; the pending sign-in is used once", async () => {
    const t = await service();
    const browser = browserOn(t);
    const callback = await browser.signInAtProvider('alice');
    const forged = new URL(callback);
    forged.searchParams.set('state', 'forged-state-value');
    expect(await errorOf(await browser.open(forged))).toEqual([400, 'AUTH022']);
    expect((await browser.open(callback)).status, 'the real callback still completes').toBe(302);
    expect(await errorOf(await browser.open(callback))).toEqual([400, 'AUTH022']);
  });

  it("a callback without the browser's cookie (another browser) is 400 AUTH022", async () => {
    const t = await service();
    const browser = browserOn(t);
    const callback = await browser.signInAtProvider('alice');
    browser.dropServiceCookies();
    expect(await errorOf(await browser.open(callback))).toEqual([400, 'AUTH022']);
  });

  it('a pending sign-in older than 10 minutes is 400 AUTH022', async () => {
    const t = await service();
    const browser = browserOn(t);
    const callback = await browser.signInAtProvider('alice');
    t.advance(10 * 60_000 + 1);
    expect(await errorOf(await browser.open(callback))).toEqual([400, 'AUTH022']);
  });

  it('a PKCE verifier that does not match the challenge is refused by the provider: 401 AUTH023', async () => {
    const t = await service();
    const browser = browserOn(t);
    const callback = await browser.signInAtProvider('alice');
    await tamperPendingLogin(t, browser, { codeVerifier: crypto.randomBytes(32).toString('base64url') });
    expect(await errorOf(await browser.open(callback))).toEqual([401, 'AUTH023']);
  });

  it("an ID token whose nonce is not the sign-in's is 401 AUTH023", async () => {
    const t = await service();
    const browser = browserOn(t);
    const callback = await browser.signInAtProvider('alice');
    await tamperPendingLogin(t, browser, { nonce: 'another-nonce' });
    expect(await errorOf(await browser.open(callback))).toEqual([401, 'AUTH023']);
  });

  it('a replayed authorization code is refused by the provider: 401 AUTH023', async () => {
    const t = await service();
    const browser = browserOn(t);
    const first = await browser.signInAtProvider('alice');
    codeOf(await browser.open(first));
    // A new sign-in of the same browser, completed with the code already redeemed.
    const second = await browser.signInAtProvider('alice');
    const replay = new URL(second);
    replay.searchParams.set('code', first.searchParams.get('code')!);
    expect(await errorOf(await browser.open(replay))).toEqual([401, 'AUTH023']);
  });

  it('an ID token with a broken signature is 401 AUTH024', async () => {
    const breakIdToken: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!String(input instanceof Request ? input.url : input).endsWith('/token')) return response;
      const body = (await response.json()) as { id_token: string };
      const [header, payload, signature] = body.id_token.split('.');
      const flipped = `${signature!.slice(0, 10)}${signature![10] === 'A' ? 'B' : 'A'}${signature!.slice(11)}`;
      return Response.json({ ...body, id_token: `${header}.${payload}.${flipped}` }, { status: response.status });
    };
    const t = await service({}, { identityProviderFetch: breakIdToken });
    const browser = browserOn(t);
    expect(await errorOf(await browser.open(await browser.signInAtProvider('alice')))).toEqual([401, 'AUTH024']);
  });

  it('the person declining at the provider is 401 AUTH026', async () => {
    const t = await service();
    const browser = browserOn(t);
    const callback = await browser.signInAtProvider('alice');
    const declined = new URL(`${callback.origin}${callback.pathname}`);
    declined.searchParams.set('error', 'access_denied');
    declined.searchParams.set('state', callback.searchParams.get('state')!);
    const res = await browser.open(declined);
    const body = (await res.json()) as { data: { code: string; message: string } };
    expect([res.status, body.data.code, body.data.message]).toEqual([401, 'AUTH026', 'The identity provider refused the sign-in (access_denied).']);
  });

  it('an e-mail the provider has not verified is 403 AUTH025, unless OIDC_REQUIRE_VERIFIED_EMAIL=false', async () => {
    const strict = await service();
    const browser = browserOn(strict);
    expect(await errorOf(await browser.open(await browser.signInAtProvider('bob')))).toEqual([403, 'AUTH025']);

    const lenient = await service({ OIDC_REQUIRE_VERIFIED_EMAIL: 'false', ADMIN_EMAILS: 'bob@example.com' });
    const me = await lenient.request<MemberAnswer>('GET', '/api/v1/members/me', { token: (await signInAs(lenient, 'bob')).accessToken });
    // In ADMIN_EMAILS, but unverified: that proves nothing, so no ADMIN.
    expect(me.body.data).toMatchObject({ email: 'bob@example.com', role: 'MEMBER' });
  });

  it('an unreachable provider is 503 AUTH021 with Retry-After; everything else is served', async () => {
    const nobody = await freePort();
    const t = await service({ OIDC_ISSUER: `http://127.0.0.1:${nobody}` });
    const res = await t.request<Answer<unknown>>('GET', '/api/v1/auth/oidc/login');
    expect([res.status, res.body.data.code]).toEqual([503, 'AUTH021']);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await t.request('GET', '/healthz')).status).toBe(200);
    expect((await t.request<MemberAnswer>('GET', '/api/v1/members/me', { token: (await t.signIn('still@example.com')).accessToken })).status).toBe(200);
  });
});

describe('the one-time code is bound to the page that started the sign-in (login CSRF)', () => {
  it("an attacker's code (sign-in started without codeChallenge) opened in the victim's browser is 400 AUTH029; it stays the attacker's", async () => {
    const t = await service();
    const attacker = browserOn(t);
    const { code } = codeOf(await attacker.open(await attacker.signInAtProvider('alice')));

    const victim = browserOn(t);
    const refused = await answerOf<unknown>(await victim.exchange(code));
    expect([refused.status, refused.body.data.code]).toEqual([400, 'AUTH029']);
    // A victim with a pending sign-in of their own has a cookie, just not the attacker's.
    await victim.signInAtProvider('alice');
    expect((await answerOf<unknown>(await victim.exchange(code))).body.data.code).toBe('AUTH029');
    expect((await answerOf<unknown>(await victim.exchange(code, pkcePair().verifier))).body.data.code, 'a verifier is no cookie').toBe('AUTH029');

    // Refusals took nothing: the browser that started it still can (the code is no weapon, and no loss).
    expect((await attacker.exchange(code)).status).toBe(200);
  });

  it("an attacker's code (sign-in started with the attacker's codeChallenge) exchanged without the attacker's verifier is 400 AUTH029", async () => {
    const t = await service();
    const attacker = browserOn(t);
    const attackers = pkcePair();
    const { code } = codeOf(await attacker.open(await attacker.signInAtProvider('alice', '/', attackers.challenge)));

    const victim = browserOn(t);
    for (const verifier of [undefined, pkcePair().verifier]) {
      const refused = await answerOf<unknown>(await victim.exchange(code, verifier));
      expect([refused.status, refused.body.data.code], String(verifier)).toEqual([400, 'AUTH029']);
    }
    // The attacker's own cookie is no substitute for the verifier of a challenged sign-in.
    expect((await answerOf<unknown>(await attacker.exchange(code))).body.data.code).toBe('AUTH029');
    expect((await victim.exchange(code, attackers.verifier)).status, 'only the verifier of the challenge').toBe(200);
  });

  it('an expired code is 400 AUTH027 whoever presents it', async () => {
    const t = await service();
    const browser = browserOn(t);
    const { code } = codeOf(await browser.open(await browser.signInAtProvider('alice')));
    t.advance(60_001);
    expect((await answerOf<unknown>(await browser.exchange(code))).body.data.code).toBe('AUTH027');
    expect((await answerOf<unknown>(await browserOn(t).exchange(code))).body.data.code).toBe('AUTH027');
  });
});

describe('discovery', () => {
  it('a provider that comes up after the service is used as soon as it answers', async () => {
    const port = await freePort();
    const t = await service({ OIDC_ISSUER: `http://127.0.0.1:${port}` });
    expect((await t.request('GET', '/api/v1/auth/oidc/login')).status).toBe(503);
    const late = await startLocalIdentityProvider({ port, redirectUris: [oidc.harness.env.OIDC_REDIRECT_URI!] });
    oidc.cleanUpAfter(() => late.stop());
    const res = await t.request('GET', '/api/v1/auth/oidc/login');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(new RegExp(`^http://127.0.0.1:${port}/`));
  });
});

describe('roles', () => {
  it('ADMIN for a verified e-mail in ADMIN_EMAILS, or for the claim named by OIDC_ADMIN_CLAIM; MEMBER otherwise', async () => {
    const byEmail = await service({ ADMIN_EMAILS: 'alice@example.com' });
    expect((await byEmail.request<MemberAnswer>('GET', '/api/v1/members/me', { token: (await signInAs(byEmail, 'alice')).accessToken })).body.data.role).toBe(
      'ADMIN',
    );

    oidc.harness.idp.accounts.set('dora', { email: 'dora@example.com', emailVerified: true, name: 'Dora', claims: { roles: ['viewer', 'admin'] } });
    oidc.harness.idp.accounts.set('eve', { email: 'eve@example.com', emailVerified: true, name: 'Eve', claims: { roles: ['viewer'] } });
    const byClaim = await service({ OIDC_ADMIN_CLAIM: 'roles' });
    const dora = await signInAs(byClaim, 'dora');
    expect((await byClaim.request<MemberAnswer>('GET', '/api/v1/members/me', { token: dora.accessToken })).body.data.role).toBe('ADMIN');
    expect((await byClaim.request('GET', '/api/v1/admin/prompts', { token: dora.accessToken })).status).toBe(200);
    const eve = await signInAs(byClaim, 'eve');
    expect((await byClaim.request<MemberAnswer>('GET', '/api/v1/members/me', { token: eve.accessToken })).body.data.role).toBe('MEMBER');
  });
});

describe('across instances and transports', () => {
  it('a sign-in started on one instance completes on another of the same database', async () => {
    let shared: string;
    if (testEngine === 'postgres') {
      const database = await freshPostgresDatabase({ migrated: true });
      oidc.cleanUpAfter(() => database.drop());
      shared = database.url;
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oidc-two-instances-'));
      oidc.cleanUpAfter(() => Promise.resolve(fs.rmSync(dir, { recursive: true, force: true })));
      shared = path.join(dir, 'shared.sqlite');
    }
    // Two instances in one process on one SQLite file: while one holds the write lock, the other's
    // wait for it (SQLite's busy timeout, 5 s) blocks the process, discovery's requests included.
    const env = { DATABASE_URL: shared, OIDC_TIMEOUT_MS: '30000' };
    const a = await service(env);
    const b = await service(env);
    let instance = a;
    const browser = scriptedBrowser(oidc.harness.origin, (pathAndQuery, init) => Promise.resolve(instance.http.request(pathAndQuery, init)));
    const callback = await browser.signInAtProvider('alice');
    instance = b;
    const { code } = codeOf(await browser.open(callback));
    instance = a;
    const exchanged = await answerOf<Schemas['TokenResponse']>(await browser.exchange(code));
    expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);
    expect((await b.request<MemberAnswer>('GET', '/api/v1/members/me', { token: exchanged.body.data.accessToken })).body.data.email).toBe('alice@example.com');
  });

  it('the access token works on HTTP and STOMP; logout revokes it on both', async () => {
    const t = await service({ STOMP_SESSION_CHECK_MS: '3600000' });
    const server = await startServer({ ...t.app, hono: t.http }, oidc.harness.port);
    oidc.cleanUpAfter(() => server.close());
    const browser = scriptedBrowser(oidc.harness.origin, (pathAndQuery, init) =>
      fetch(`${oidc.harness.origin}${pathAndQuery}`, { ...init, redirect: 'manual' }),
    );
    const { code } = codeOf(await browser.open(await browser.signInAtProvider('alice')));
    const tokens = (await answerOf<Schemas['TokenResponse']>(await browser.exchange(code))).body.data;

    const plan = await t.request<Answer<Schemas['ChannelIdResponse']>>('POST', '/api/v1/trips', { token: tokens.accessToken, body: busanTrip });
    expect(plan.status).toBe(201);
    const stomp = await connectStomp(wsUrl(server.url), tokens.accessToken);
    expect(stomp.connected).toBe(true);
    await stomp.subscribe(`/user/sub/schedule/${plan.body.data.tripPlanId}`, { timeoutMs: 20_000 });

    expect((await t.request('POST', '/api/v1/auth/logout', { token: tokens.accessToken })).status).toBe(204);
    expect((await stomp.waitForError(20_000)).headers['error-code']).toBe('WS002');
    const after = await t.request<MemberAnswer>('GET', '/api/v1/members/me', { token: tokens.accessToken });
    expect([after.status, after.body.data.code]).toEqual([401, 'AUTH001']);
    const refused = await connectStomp(wsUrl(server.url), tokens.accessToken);
    expect(refused.connected).toBe(false);
    expect(refused.errors[0]?.headers['error-code']).toBe('WS001');
  });

  it('no code, state, one-time code, verifier or token reaches the logs', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const t = await service({}, { logger: pino({ level: 'trace' }, sink) });
    const browser = browserOn(t);
    const { verifier, challenge } = pkcePair();
    const callback = await browser.signInAtProvider('alice', '/', challenge);
    const { code } = codeOf(await browser.open(callback));
    const tokens = (await answerOf<Schemas['TokenResponse']>(await browser.exchange(code, verifier))).body.data;
    const log = lines.join('');
    expect(log).toContain('signed in with OpenID Connect');
    for (const secret of [callback.searchParams.get('code')!, callback.searchParams.get('state')!, code, verifier, tokens.accessToken, tokens.refreshToken]) {
      expect(log).not.toContain(secret);
    }
  });
});
