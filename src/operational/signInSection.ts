// The landing page's "Sign in" section: the markup whose data attributes tell its script
// (signIn/landingSignIn.ts) the operations' paths, and the scripts themselves, compiled by the build
// (browserScripts.ts) and served from /docs/assets/ with the other files the docs pages share.
import path from 'node:path';
import { operationPath } from '../kernel/operationPath.js';
import { builtBrowserFile, signInModules, signInScripts } from './browserScripts.js';
import { escapeHtml } from './docLinks.js';
import type { StaticAsset } from './staticAssets.js';

/** What this server offers to sign in with; a page offers exactly these. */
export interface SignInOffer {
  /** startOidcSignIn's path when an identity provider is configured (OIDC_ISSUER), else null */
  oidcStartPath: string | null;
  /** AUTH_DEV_LOGIN (config.devLoginEnabled): devLogin answers */
  devLoginEnabled: boolean;
}

export const noSignIn: SignInOffer = { oidcStartPath: null, devLoginEnabled: false };

const javascript = 'text/javascript; charset=utf-8';

/** Under /docs/assets/: the landing page's script and the tab's sign-in it shares with Swagger UI and the playground. */
export const signInAssets: Record<string, StaticAsset> = Object.fromEntries(
  signInModules.map((name) => [name, { file: builtBrowserFile(path.posix.join(signInScripts, name)), type: javascript }]),
);

/** data-* attributes naming the paths the sign-in scripts call; dev-login's and the provider's only when offered. */
export function signInPathAttributes(offer: SignInOffer): string {
  const paths: Record<string, string | null> = {
    'data-me': operationPath('getMe', {}),
    'data-reissue': operationPath('reissueToken', {}),
    'data-logout': operationPath('logout', {}),
    'data-dev-login': offer.devLoginEnabled ? operationPath('devLogin', {}) : null,
    'data-oidc-start': offer.oidcStartPath,
    'data-oidc-exchange': offer.oidcStartPath ? operationPath('exchangeOidcSignInCode', {}) : null,
  };
  return Object.entries(paths)
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([name, value]) => `${name}="${escapeHtml(value)}"`)
    .join(' ');
}

/** Says whether dev-login is on, in words a person who opened the page can act on. */
function devLoginState(offer: SignInOffer): string {
  if (offer.devLoginEnabled) return 'Dev-login is on: sign in with any e-mail, no password (development and tests only; the role is always MEMBER).';
  if (offer.oidcStartPath) return 'Dev-login is off on this server: sign in with the identity provider.';
  return 'Dev-login is off on this server and no identity provider is configured: nobody can sign in from this page.';
}

/**
 * The section: who is signed in in this tab, the ways to sign in that the server offers, and once
 * signed in the access token to show or copy (for curl, or Swagger UI in another tab) and "Sign out".
 */
export function renderSignInSection(offer: SignInOffer): string {
  const devLoginForm = `<form id="dev-login" class="sign-in-form">
    <label for="dev-login-email">E-mail</label>
    <input id="dev-login-email" name="email" type="email" required maxlength="254" autocomplete="email" placeholder="you@example.com">
    <button type="submit">Sign in with e-mail</button>
  </form>`;
  return `<section id="sign-in-section" ${signInPathAttributes(offer)}>
  <h2>Sign in</h2>
  <p id="dev-login-state" class="hint">${escapeHtml(devLoginState(offer))}</p>
  <p id="sign-in-status" role="status">Not signed in.</p>
  ${offer.devLoginEnabled ? devLoginForm : ''}
  ${offer.oidcStartPath ? `<p><a id="sign-in" href="${escapeHtml(offer.oidcStartPath)}?returnTo=%2F">Sign in</a></p>` : ''}
  <p><button id="sign-out" type="button" hidden>Sign out</button></p>
  <div id="token-tools" hidden>
    <button id="show-token" type="button" aria-expanded="false" aria-controls="access-token">Show access token</button>
    <button id="copy-token" type="button">Copy access token</button>
    <span id="copy-state" role="status"></span>
    <pre id="access-token" hidden></pre>
  </div>
  <script type="module" src="/docs/assets/landingSignIn.js"></script>
</section>`;
}

export const signInSectionCss =
  // An element a script hides stays hidden whatever display its rules give it.
  '[hidden]{display:none!important}' +
  '.sign-in-form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}.sign-in-form input{font:inherit;padding:.2rem .4rem;width:18rem}' +
  '#access-token{white-space:pre-wrap;word-break:break-all;background:#f3f4f6;padding:.5rem;border-radius:4px;font-size:.8em}';
