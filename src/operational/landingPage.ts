// GET /: where a browser or a client starts. The same links as JSON (LandingPageResponse) or as a
// plain HTML page, chosen by Accept (see getLandingPage in openapi.yaml).
import { objectOrEmpty, stringOrUndefined, type JsonObject } from '../../conformance/specModel/index.js';
import { stompServerPath } from '../../generated/asyncapi.js';
import type { components } from '../../generated/openapi.js';
import { operationPath } from '../kernel/operationPath.js';
import { docLinks, escapeHtml, navBar, navBarCss } from './docLinks.js';

type LandingPageResponse = components['schemas']['LandingPageResponse'];

export interface ApiInfo {
  title: string;
  version: string;
  summary?: string;
}

/** info of openapi.yaml, where title and version are required (lint:spec checks the document). */
export function apiInfoOf(openapi: JsonObject): ApiInfo {
  const info = objectOrEmpty(openapi.info);
  return { title: stringOrUndefined(info.title) ?? '', version: stringOrUndefined(info.version) ?? '', summary: stringOrUndefined(info.summary) };
}

export function landingPageData(info: ApiInfo): LandingPageResponse {
  return { title: info.title, version: info.version, links: docLinks };
}

const link = (target: { href: string; title: string }) => `<a href="${target.href}">${escapeHtml(target.title)}</a>`;

/**
 * "Sign in" when OpenID Connect is configured: the link starts the sign-in with a code challenge
 * whose verifier this tab keeps (sessionStorage); back here, the script exchanges the one-time code
 * of the fragment for tokens (kept in sessionStorage for this tab) only for a sign-in this tab
 * started, with that verifier, so a code someone else's sign-in ended with, sent in a link, signs
 * nobody in as them. It shows who is signed in (getMe) and offers to sign out (logout).
 * crypto.subtle exists only in secure contexts (https, loopback): elsewhere the sign-in is started
 * without a challenge and the code is bound to the browser's cookie instead.
 */
function signInSection(signInPath: string): string {
  return `<h2>Sign in</h2>
  <p id="sign-in-status">Not signed in.</p>
  <p><a id="sign-in" href="${escapeHtml(signInPath)}?returnTo=%2F">Sign in</a> <button id="sign-out" type="button" hidden>Sign out</button></p>
  <script>
  (async () => {
    const status = document.getElementById('sign-in-status');
    const signIn = document.getElementById('sign-in');
    const signOut = document.getElementById('sign-out');
    const base64url = (bytes) => btoa(String.fromCharCode(...bytes)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
    signIn.addEventListener('click', async (event) => {
      event.preventDefault();
      const start = new URL(signIn.href);
      const started = {};
      if (crypto.subtle) {
        started.verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
        const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(started.verifier));
        start.searchParams.set('codeChallenge', base64url(new Uint8Array(digest)));
      }
      sessionStorage.setItem('oidcSignIn', JSON.stringify(started));
      location.assign(start.href);
    });
    const code = new URLSearchParams(location.hash.slice(1)).get('oidcCode');
    if (code) {
      history.replaceState(null, '', location.pathname + location.search);
      const started = JSON.parse(sessionStorage.getItem('oidcSignIn') ?? 'null');
      sessionStorage.removeItem('oidcSignIn');
      if (!started) {
        status.textContent = 'Ignored a sign-in code of a sign-in not started here.';
      } else {
        const exchanged = await fetch(${JSON.stringify(operationPath('exchangeOidcSignInCode', {}))}, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code, codeVerifier: started.verifier }) });
        const answer = await exchanged.json();
        if (!exchanged.ok) { status.textContent = 'Sign-in failed: ' + answer.data.code + ' ' + answer.data.message; return; }
        sessionStorage.setItem('accessToken', answer.data.accessToken);
      }
    }
    const token = sessionStorage.getItem('accessToken');
    if (!token) return;
    const me = await fetch(${JSON.stringify(operationPath('getMe', {}))}, { headers: { authorization: 'Bearer ' + token } });
    if (!me.ok) { sessionStorage.removeItem('accessToken'); return; }
    const member = (await me.json()).data;
    status.textContent = 'Signed in as ' + member.name + ' (' + member.email + ', ' + member.role + ').';
    signIn.hidden = true;
    signOut.hidden = false;
    signOut.addEventListener('click', async () => {
      await fetch(${JSON.stringify(operationPath('logout', {}))}, { method: 'POST', headers: { authorization: 'Bearer ' + token } });
      sessionStorage.removeItem('accessToken');
      status.textContent = 'Signed out.';
      signOut.hidden = true;
      signIn.hidden = false;
    });
  })();
  </script>`;
}

export function renderLandingPage(info: ApiInfo, signInPath: string | null = null): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(info.title)}</title>
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
  <style>${navBarCss}
body{margin:0;color:#1b1f24;font:16px/1.55 system-ui,sans-serif}main{max-width:46rem;margin:2rem auto;padding:0 1.25rem}
h1 small{color:#57606a;font-size:.55em;font-weight:400}h2{margin-top:1.75rem;font-size:1.15rem}li{margin:.3rem 0}
a{color:#0969da}code{background:#f3f4f6;padding:.1rem .3rem;border-radius:4px;font-size:.9em}.hint{color:#57606a}</style>
</head>
<body>
${navBar('/')}
<main>
  <h1>${escapeHtml(info.title)} <small>${escapeHtml(info.version)}</small></h1>
  ${info.summary ? `<p>${escapeHtml(info.summary)}</p>` : ''}
  ${signInPath ? signInSection(signInPath) : ''}
  <h2>Documentation</h2>
  <ul>
    <li>${link(docLinks.apiDocs)}: every HTTP operation, with “Try it out” against this server.</li>
    <li>${link(docLinks.asyncApiDocs)}: STOMP over WebSocket at <code>${stompServerPath}</code>, its channels and messages.</li>
  </ul>
  <h2>Documents</h2>
  <ul>
    <li>${link(docLinks.openApiDocument)}: the HTTP contract (OpenAPI 3.1), self-contained; SDK generator input.</li>
    <li>${link(docLinks.asyncApiDocument)}: the real-time contract (AsyncAPI 3.0), self-contained.</li>
  </ul>
  <h2>Health</h2>
  <ul>
    <li><a href="${docLinks.health.href}">${docLinks.health.href}</a>: ${escapeHtml(docLinks.health.title.toLowerCase())}.</li>
    <li><a href="${docLinks.readiness.href}">${docLinks.readiness.href}</a>: ${escapeHtml(docLinks.readiness.title.toLowerCase())} (the database answers).</li>
  </ul>
  <p class="hint">API clients get these links as JSON: <code>curl -H 'Accept: application/json' …/</code></p>
</main>
</body>
</html>
`;
}
