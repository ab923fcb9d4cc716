// Who is signed in in this tab, shared by the docs pages: the landing page signs in and out, Swagger
// UI is authorised with the access token, the playground uses and reissues the pair. The tokens live
// in sessionStorage: this tab's own, gone when it closes, never sent by the browser by itself.
// Also the OpenID Connect sign-in's two browser halves (see docs/sign-in.md): starting it with a
// code challenge whose verifier this tab keeps, and taking the one-time code back from the address.
import type { components, Tokens } from '@trip-itinerary/client';

type Schemas = components['schemas'];

const accessTokenKey = 'accessToken';
const refreshTokenKey = 'refreshToken';
const pendingOidcKey = 'oidcSignIn';

/** The tab's token pair, or null when nobody is signed in here. */
export function storedTokens(): Tokens | null {
  const accessToken = sessionStorage.getItem(accessTokenKey);
  return accessToken ? { accessToken, refreshToken: sessionStorage.getItem(refreshTokenKey) } : null;
}

/** Keeps a pair answered by devLogin, exchangeOidcSignInCode or reissueToken (TokenResponse). */
export function keepTokens({ accessToken, refreshToken }: Tokens): void {
  sessionStorage.setItem(accessTokenKey, accessToken);
  if (refreshToken) sessionStorage.setItem(refreshTokenKey, refreshToken);
  else sessionStorage.removeItem(refreshTokenKey);
}

export function forgetTokens(): void {
  sessionStorage.removeItem(accessTokenKey);
  sessionStorage.removeItem(refreshTokenKey);
}

/**
 * An operation's answer: `ok`, the status and the envelope's `data`: the result (`Data`, the
 * operation's schema, which the server checks its answers against), or the error's code and
 * message; null for an answer without a body.
 */
export type Answer<Data> = { ok: true; status: number; data: Data } | { ok: false; status: number; data: Schemas['ErrorResponse'] | null };

export interface CallInit {
  method?: 'GET' | 'POST';
  body?: unknown;
  token?: string;
}

export async function callOperation<Data = unknown>(path: string, { method = 'GET', body, token }: CallInit = {}): Promise<Answer<Data>> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const data = text ? (JSON.parse(text) as { data: unknown }).data : null;
  return response.ok
    ? { ok: true, status: response.status, data: data as Data }
    : { ok: false, status: response.status, data: data as Schemas['ErrorResponse'] | null };
}

/** Who is signed in in this tab, and the pair valid for them. */
export interface SignedIn {
  member: Schemas['MemberResponse'];
  tokens: Tokens;
}

/**
 * Who the tab's tokens belong to (getMe at `mePath`), with the pair then valid: an expired access
 * token is reissued once with the refresh token (reissueToken at `reissuePath`). null when nobody
 * is signed in here or the session ended (the tokens are then forgotten).
 */
export async function whoIsSignedIn({ mePath, reissuePath }: { mePath: string; reissuePath: string }): Promise<SignedIn | null> {
  const tokens = storedTokens();
  if (!tokens) return null;
  let me = await callOperation<Schemas['MemberResponse']>(mePath, { token: tokens.accessToken });
  if (me.status === 401 && tokens.refreshToken) {
    const body: Schemas['ReissueTokenRequest'] = { refreshToken: tokens.refreshToken };
    const reissued = await callOperation<Schemas['TokenResponse']>(reissuePath, { method: 'POST', body });
    if (reissued.ok) {
      keepTokens(reissued.data);
      me = await callOperation<Schemas['MemberResponse']>(mePath, { token: reissued.data.accessToken });
    }
  }
  const kept = storedTokens();
  if (!me.ok || !kept) {
    forgetTokens();
    return null;
  }
  return { member: me.data, tokens: kept };
}

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');

/** What this tab keeps of an OIDC sign-in it started: the code challenge's verifier, when it made one. */
interface PendingOidcSignIn {
  verifier?: string;
}

/**
 * Sends the browser to the provider through `startPath` (startOidcSignIn), to come back to
 * `returnTo` (a path of this server). crypto.subtle exists only in secure contexts (https,
 * loopback): elsewhere the sign-in starts without a challenge and the code is bound to the
 * browser's cookie instead.
 */
export async function startOidcSignIn(startPath: string, returnTo: string): Promise<void> {
  const start = new URL(startPath, location.href);
  start.searchParams.set('returnTo', returnTo);
  const started: PendingOidcSignIn = {};
  if (crypto.subtle) {
    started.verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(started.verifier));
    start.searchParams.set('codeChallenge', base64url(new Uint8Array(digest)));
  }
  sessionStorage.setItem(pendingOidcKey, JSON.stringify(started));
  location.assign(start.href);
}

/**
 * The one-time code the address came back with (`#oidcCode=…`), taken out of the address bar:
 * null without one; `{ notStartedHere: true }` for a code of a sign-in this tab did not start (a
 * link someone sent must sign nobody in as them); else `{ code, codeVerifier }` for the exchange.
 */
export function takeOidcCode(): Schemas['OidcSignInCodeRequest'] | { notStartedHere: true } | null {
  const code = new URLSearchParams(location.hash.slice(1)).get('oidcCode');
  if (!code) return null;
  history.replaceState(null, '', location.pathname + location.search);
  const started = JSON.parse(sessionStorage.getItem(pendingOidcKey) ?? 'null') as PendingOidcSignIn | null;
  sessionStorage.removeItem(pendingOidcKey);
  if (!started) return { notStartedHere: true };
  return started.verifier ? { code, codeVerifier: started.verifier } : { code };
}
