// The bounds of the OpenID Connect sign-in against a provider or a client that misbehaves: every
// request to the provider ends after OIDC_TIMEOUT_MS (a provider that accepts connections and
// never answers is 503 AUTH021, not a hung request), pending sign-ins are bounded per client address
// (429 COMMON429) and in total (503 AUTH030) and each is small, and an ID token issued in the
// future beyond a small clock skew is refused. (A forged callback leaving the real sign-in intact:
// oidcSignIn.test.ts.)
import crypto from 'node:crypto';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { oidcTestServices } from '../support/oidcTestServices.js';
import { errorCodeOf } from '../support/responseBody.js';
import { scriptedBrowser, type ScriptedBrowser } from '../support/scriptedBrowser.js';
import { startTcpProxy } from '../support/tcpProxy.js';
import { type TestApp, type TestResponse } from '../support/testApp.js';

const oidc = oidcTestServices();
const { service } = oidc;

/** A browser at `address` (as the trusted proxy of TRUST_PROXY_HOPS=1 reports it, when given). */
function browserOn(t: TestApp, address?: string): ScriptedBrowser {
  return scriptedBrowser(oidc.harness.origin, (pathAndQuery, init) =>
    Promise.resolve(t.http.request(pathAndQuery, { ...init, headers: { ...init.headers, ...(address ? { 'x-forwarded-for': address } : {}) } })),
  );
}

async function errorOf(response: Response): Promise<[number, string]> {
  const body = (await response.json()) as { data: { code: string } };
  return [response.status, body.data.code];
}

const startFrom = (t: TestApp, address: string, returnTo = '/'): Promise<TestResponse> =>
  t.request('GET', '/api/v1/auth/oidc/login', { query: { returnTo }, headers: { 'x-forwarded-for': address } });

/** A TCP server that accepts connections and never writes a byte: a provider that hangs. */
async function silentServer(): Promise<string> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  oidc.cleanUpAfter(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

// The pre-bound code waited 10 s for discovery and for each later request; these tests end well
// before that, so they fail when a provider call is not bounded by OIDC_TIMEOUT_MS.
const BEFORE_THE_OLD_TEN_SECONDS = { timeout: 9000 };

describe('every request to the provider is bounded by OIDC_TIMEOUT_MS', () => {
  it('a provider that accepts connections and never answers: the sign-in start answers 503 AUTH021 with Retry-After', BEFORE_THE_OLD_TEN_SECONDS, async () => {
    const t = await service({ OIDC_ISSUER: await silentServer(), OIDC_TIMEOUT_MS: '200' });
    const res = await t.request('GET', '/api/v1/auth/oidc/login');
    expect([res.status, errorCodeOf(res)]).toEqual([503, 'AUTH021']);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('a token endpoint that never answers: the callback answers 503 AUTH021', BEFORE_THE_OLD_TEN_SECONDS, async () => {
    // The provider answers discovery; its token endpoint is reached through a proxy that holds every byte.
    const issuer = new URL(oidc.harness.idp.issuer);
    const proxy = await startTcpProxy({ host: issuer.hostname, port: Number(issuer.port) });
    oidc.cleanUpAfter(() => proxy.close());
    proxy.blackHole();
    const tokenBlackHoled: typeof fetch = (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      return fetch(url.endsWith('/token') ? url.replace(oidc.harness.idp.issuer, `http://127.0.0.1:${proxy.port}`) : input, init);
    };
    // Long enough for discovery to succeed on a busy machine, far from the old ten seconds.
    const t = await service({ OIDC_TIMEOUT_MS: '1500' }, { identityProviderFetch: tokenBlackHoled });
    const browser = browserOn(t);
    expect(await errorOf(await browser.open(await browser.signInAtProvider('alice')))).toEqual([503, 'AUTH021']);
  });
});

describe('pending sign-ins are bounded', () => {
  it('per client address: 429 COMMON429 with Retry-After beyond OIDC_PENDING_SIGN_INS_PER_ADDRESS; other addresses go on; a completed or expired one frees its place', async () => {
    const t = await service({ TRUST_PROXY_HOPS: '1', OIDC_PENDING_SIGN_INS_PER_ADDRESS: '2' });
    const completed = browserOn(t, '198.51.100.1');
    const callback = await completed.signInAtProvider('alice');
    expect((await startFrom(t, '198.51.100.1')).status).toBe(302);

    const refused = await startFrom(t, '198.51.100.1');
    expect([refused.status, errorCodeOf(refused)]).toEqual([429, 'COMMON429']);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(600);
    expect((await startFrom(t, '198.51.100.2')).status, 'another address').toBe(302);

    expect((await completed.open(callback)).status, 'the first sign-in completes').toBe(302);
    expect((await startFrom(t, '198.51.100.1')).status, 'its place is free again').toBe(302);
    expect((await startFrom(t, '198.51.100.1')).status).toBe(429);
    t.advance(10 * 60_000 + 1);
    expect((await startFrom(t, '198.51.100.1')).status, 'the expired ones no longer count').toBe(302);
  });

  it('in total: 503 AUTH030 with Retry-After beyond OIDC_PENDING_SIGN_INS_MAX', async () => {
    const t = await service({ TRUST_PROXY_HOPS: '1', OIDC_PENDING_SIGN_INS_MAX: '3' });
    for (const address of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) expect((await startFrom(t, address)).status).toBe(302);
    const refused = await startFrom(t, '198.51.100.4');
    expect([refused.status, errorCodeOf(refused)]).toEqual([503, 'AUTH030']);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    t.advance(10 * 60_000 + 1);
    expect((await startFrom(t, '198.51.100.4')).status).toBe(302);
  });

  it('concurrent starts from one address get no more places than the bound (one count across instances of a database)', async () => {
    const t = await service({ TRUST_PROXY_HOPS: '1', OIDC_PENDING_SIGN_INS_PER_ADDRESS: '3' });
    const statuses = await Promise.all(Array.from({ length: 12 }, () => startFrom(t, '198.51.100.7').then((res) => res.status)));
    expect(statuses.filter((status) => status === 302)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(9);
  });

  it('a returnTo longer than 2048 characters once percent-encoded is 400 COMMON001: a pending sign-in stays small', async () => {
    const t = await service();
    const longOnceEncoded = `/${'é'.repeat(400)}`; // 401 characters, 2401 percent-encoded
    const res = await t.request('GET', '/api/v1/auth/oidc/login', { query: { returnTo: longOnceEncoded } });
    expect([res.status, errorCodeOf(res)]).toEqual([400, 'COMMON001']);
    expect((await t.request('GET', '/api/v1/auth/oidc/login', { query: { returnTo: `/${'é'.repeat(300)}` } })).status).toBe(302);
  });
});

/**
 * A fetch to the provider that re-signs each ID token with a key of the test, after `change` (the
 * provider's keys are replaced by that key): how a provider whose clock is off signs its tokens.
 */
function reSigningFetch(change: (claims: Record<string, unknown>) => Record<string, unknown>): typeof fetch {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'test-key';
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    const response = await fetch(input, init);
    if (url.endsWith('/jwks')) return Response.json({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }] });
    if (!url.endsWith('/token') || !response.ok) return response;
    const body = (await response.json()) as { id_token: string };
    const claims = JSON.parse(Buffer.from(body.id_token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    const signed = `${encode({ alg: 'RS256', kid, typ: 'JWT' })}.${encode(change(claims))}`;
    const signature = crypto.sign('sha256', Buffer.from(signed), privateKey).toString('base64url');
    return Response.json({ ...body, id_token: `${signed}.${signature}` }, { status: response.status });
  };
}

describe('the ID token', () => {
  const issuedIn = (seconds: number) => (claims: Record<string, unknown>) => ({ ...claims, iat: (claims.iat as number) + seconds });

  it('issued a day in the future is 401 AUTH024; within the clock skew of 60 s it is accepted', async () => {
    const future = await service({}, { identityProviderFetch: reSigningFetch(issuedIn(86_400)) });
    const browser = browserOn(future);
    expect(await errorOf(await browser.open(await browser.signInAtProvider('alice')))).toEqual([401, 'AUTH024']);

    const skewed = await service({}, { identityProviderFetch: reSigningFetch(issuedIn(30)) });
    const other = browserOn(skewed);
    expect((await other.open(await other.signInAtProvider('alice'))).status).toBe(302);
  });
});
