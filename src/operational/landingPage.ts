// GET /: where a browser or a client starts. The same links as JSON (LandingPageResponse) or as a
// plain HTML page, chosen by Accept (see getLandingPage in openapi.yaml).
import { objectOrEmpty, stringOrUndefined, type JsonObject } from '../../conformance/specModel/index.js';
import { stompServerPath } from '../../generated/asyncapi.js';
import type { components } from '../../generated/openapi.js';
import { docLinks, escapeHtml, navBar, navBarCss, playgroundLink } from './docLinks.js';
import { noSignIn, renderSignInSection, signInSectionCss, type SignInOffer } from './signInSection.js';

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

/** The page; its sign-in section offers what `signIn` says the server offers (see signInSection.ts). */
export function renderLandingPage(info: ApiInfo, signIn: SignInOffer = noSignIn): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(info.title)}</title>
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
  <style>${navBarCss}${signInSectionCss}
body{margin:0;color:#1b1f24;font:16px/1.55 system-ui,sans-serif}main{max-width:46rem;margin:2rem auto;padding:0 1.25rem}
h1 small{color:#57606a;font-size:.55em;font-weight:400}h2{margin-top:1.75rem;font-size:1.15rem}li{margin:.3rem 0}
a{color:#0969da}code{background:#f3f4f6;padding:.1rem .3rem;border-radius:4px;font-size:.9em}.hint{color:#57606a}</style>
</head>
<body>
${navBar('/')}
<main>
  <h1>${escapeHtml(info.title)} <small>${escapeHtml(info.version)}</small></h1>
  ${info.summary ? `<p>${escapeHtml(info.summary)}</p>` : ''}
  ${renderSignInSection(signIn)}
  <h2>Documentation</h2>
  <ul>
    <li>${link(docLinks.apiDocs)}: every HTTP operation, with “Try it out” against this server.</li>
    <li>${link(docLinks.asyncApiDocs)}: STOMP over WebSocket at <code>${stompServerPath}</code>, its channels and messages.</li>
    <li>${link(playgroundLink)}: the whole flow by hand with the TypeScript client: a trip, its days arriving live, cancel, chat, a dropped connection resumed.</li>
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
