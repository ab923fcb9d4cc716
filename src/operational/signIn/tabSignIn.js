// Who is signed in in this tab, shared by the docs pages: the landing page signs in and out, Swagger
// UI is authorised with the access token, the playground uses and reissues the pair. The tokens live
// in sessionStorage: this tab's own, gone when it closes, never sent by the browser by itself.
// Also the OpenID Connect sign-in's two browser halves (see docs/sign-in.md): starting it with a
// code challenge whose verifier this tab keeps, and taking the one-time code back from the address.
/* global sessionStorage, location, history, crypto, btoa, TextEncoder, fetch, URL, URLSearchParams */

const accessTokenKey = 'accessToken';
const refreshTokenKey = 'refreshToken';
const pendingOidcKey = 'oidcSignIn';

/** The tab's token pair, or null when nobody is signed in here. */
export function storedTokens() {
  const accessToken = sessionStorage.getItem(accessTokenKey);
  return accessToken ? { accessToken, refreshToken: sessionStorage.getItem(refreshTokenKey) } : null;
}

/** Keeps a pair answered by devLogin, exchangeOidcSignInCode or reissueToken (TokenResponse). */
export function keepTokens({ accessToken, refreshToken }) {
  sessionStorage.setItem(accessTokenKey, accessToken);
  if (refreshToken) sessionStorage.setItem(refreshTokenKey, refreshToken);
  else sessionStorage.removeItem(refreshTokenKey);
}

export function forgetTokens() {
  sessionStorage.removeItem(accessTokenKey);
  sessionStorage.removeItem(refreshTokenKey);
}

/** An operation's answer: `ok`, the status and the envelope's `data` (the result, or the error's code and message). */
export async function callOperation(path, { method = 'GET', body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { ok: response.ok, status: response.status, data: text ? JSON.parse(text).data : null };
}

/**
 * Who the tab's tokens belong to (getMe at `mePath`), with the pair then valid: an expired access
 * token is reissued once with the refresh token (reissueToken at `reissuePath`). null when nobody
 * is signed in here or the session ended (the tokens are then forgotten).
 */
export async function whoIsSignedIn({ mePath, reissuePath }) {
  const tokens = storedTokens();
  if (!tokens) return null;
  let me = await callOperation(mePath, { token: tokens.accessToken });
  if (me.status === 401 && tokens.refreshToken) {
    const reissued = await callOperation(reissuePath, { method: 'POST', body: { refreshToken: tokens.refreshToken } });
    if (reissued.ok) {
      keepTokens(reissued.data);
      me = await callOperation(mePath, { token: reissued.data.accessToken });
    }
  }
  if (!me.ok) {
    forgetTokens();
    return null;
  }
  return { member: me.data, tokens: storedTokens() };
}

const base64url = (bytes) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');

/**
 * Sends the browser to the provider through `startPath` (startOidcSignIn), to come back to
 * `returnTo` (a path of this server). crypto.subtle exists only in secure contexts (https,
 * loopback): elsewhere the sign-in starts without a challenge and the code is bound to the
 * browser's cookie instead.
 */
export async function startOidcSignIn(startPath, returnTo) {
  const start = new URL(startPath, location.href);
  start.searchParams.set('returnTo', returnTo);
  const started = {};
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
export function takeOidcCode() {
  const code = new URLSearchParams(location.hash.slice(1)).get('oidcCode');
  if (!code) return null;
  history.replaceState(null, '', location.pathname + location.search);
  const started = JSON.parse(sessionStorage.getItem(pendingOidcKey) ?? 'null');
  sessionStorage.removeItem(pendingOidcKey);
  if (!started) return { notStartedHere: true };
  return started.verifier ? { code, codeVerifier: started.verifier } : { code };
}
