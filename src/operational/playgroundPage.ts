// /docs/playground: the whole flow by hand, in a browser, with the TypeScript client package
// (@trip-itinerary/client): sign in, create a trip, watch its days arrive, cancel, chat, drop the
// connection and see the client resume. Its script is a bundle of the page's modules and the
// package (browserScripts.ts), served from this server like every docs asset (no CDN).
import type { Env, Hono } from 'hono';
import { jsonAt, numberOrUndefined, type JsonObject } from '../../conformance/specModel/index.js';
import { delivery } from '../../generated/asyncapi.js';
import { navBar, navBarCss, playgroundLink } from './docLinks.js';
import { builtBrowserFile, playgroundBundle } from './browserScripts.js';
import { renderTripFormFields } from './playgroundForm.js';
import { signInPathAttributes, type SignInOffer } from './signInSection.js';
import type { SpecDocuments } from './specDocuments.js';
import { registerStaticAssets } from './staticAssets.js';

const assetsPath = `${playgroundLink.href}/assets`;

const css = `${navBarCss}[hidden]{display:none!important}
body{margin:0;color:#1b1f24;font:15px/1.5 system-ui,sans-serif;background:#f6f8fa}main{max-width:64rem;margin:1.25rem auto;padding:0 1.25rem}
h1{font-size:1.4rem;margin:.2rem 0}h1 small{color:#57606a;font-size:.7em;font-weight:400}h2{font-size:1.1rem;margin:0 0 .5rem}
section{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:.8rem 1rem;margin:1rem 0}
form{display:flex;flex-wrap:wrap;gap:.6rem 1rem;align-items:center}input,select,button{font:inherit}input[type=number]{width:5rem}
fieldset{border:1px solid #d0d7de;border-radius:6px;display:flex;flex-wrap:wrap;gap:.2rem .8rem}.choice{white-space:nowrap}
.hint{color:#57606a}#problem{background:#ffebe9;border:1px solid #ff8182;border-radius:6px;padding:.5rem .8rem}
.day h3{font-size:1rem;margin:.6rem 0 .2rem}.stops{margin:0;color:#424a53}#chat-log,#connection-log{list-style:none;padding:0;max-height:22rem;overflow:auto}
#chat-log li{white-space:pre-wrap;margin:.2rem 0}.chat-you strong{color:#0969da}.chat-planner strong{color:#1a7f37}.chat-event{color:#57606a}
#connection-log{font:13px/1.45 ui-monospace,monospace}.recovered{color:#1a7f37}.lost,.dropped{color:#cf222e}.resume{color:#8250df}`;

/** The replay headers of asyncapi.yaml's x-delivery, which the page's connection log shows on a resume. */
const realtimeAttributes = `data-since-header="${delivery.replay.since.header}" data-recovered-header="${delivery.replay.recoveredHeader}"`;

/** The chat message's longest text, as asyncapi.yaml bounds it. */
const chatMessageMaxLength = (asyncapi: JsonObject) =>
  numberOrUndefined(jsonAt(asyncapi, 'components', 'schemas', 'ChatMessageRequest', 'properties', 'content', 'maxLength'));

function runSections(asyncapi: JsonObject): string {
  const maxLength = chatMessageMaxLength(asyncapi);
  return `<section id="run" hidden>
    <h2>The run <small id="run-ids" class="hint"></small></h2>
    <p id="run-status" role="status"></p>
    <p><button id="cancel-run" type="button" disabled>Cancel the run</button> <button id="drop-connection" type="button" disabled>Drop the connection</button></p>
    <ol id="days"></ol>
  </section>
  <section id="chat" hidden>
    <h2>Chat</h2>
    <ol id="chat-log"></ol>
    <form id="chat-form"><label>Message <input name="content" required${maxLength === undefined ? '' : ` maxlength="${maxLength}"`} size="50" placeholder="swap stop 1 and 2 on day 1"></label><button type="submit" disabled>Send</button></form>
  </section>
  <section id="connection">
    <h2>Connection <small id="connection-state" class="hint">not connected</small></h2>
    <ol id="connection-log"></ol>
  </section>`;
}

/** The page: its <main> names the operations' paths the script calls and what the server offers to sign in with. */
export function renderPlaygroundPage({ openapi, asyncapi }: Pick<SpecDocuments, 'openapi' | 'asyncapi'>, signIn: SignInOffer): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Playground · Trip Itinerary Service</title>
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
  <style>${css}</style>
</head>
<body>
${navBar(playgroundLink.href)}
<main ${signInPathAttributes(signIn)} ${realtimeAttributes}>
  <h1>Playground <small>the TypeScript client in this page, against this server</small></h1>
  <p id="script-state" class="hint">The page's script has not started. It is made by <code>npm run build</code>: a server run from a checkout that was never built has none.</p>
  <p id="problem" role="alert" hidden></p>
  <section id="account">
    <h2>Sign in</h2>
    <p id="who" role="status">Not signed in.</p>
    ${signIn.devLoginEnabled ? '<form id="dev-login"><label>E-mail <input name="email" type="email" required maxlength="254" placeholder="you@example.com"></label><button type="submit">Sign in with e-mail</button></form>' : ''}
    ${signIn.oidcStartPath ? '<p><button id="oidc-sign-in" type="button">Sign in with the identity provider</button></p>' : ''}
    ${signIn.devLoginEnabled || signIn.oidcStartPath ? '' : '<p class="hint">Dev-login is off on this server and no identity provider is configured: sign in elsewhere in this tab is not possible either.</p>'}
  </section>
  <section id="trip">
    <h2>A trip</h2>
    <form id="trip-form">
    ${renderTripFormFields(openapi)}
    <button type="submit" disabled>Create the trip and generate</button>
    </form>
  </section>
  ${runSections(asyncapi)}
</main>
<script type="module" src="${assetsPath}/playground.js"></script>
</body>
</html>
`;
}

/** The bundle, under /docs/playground/assets/. */
export function registerPlaygroundAssets<E extends Env>(app: Hono<E>): void {
  registerStaticAssets(app, assetsPath, { 'playground.js': { file: builtBrowserFile(playgroundBundle), type: 'text/javascript; charset=utf-8' } });
}
