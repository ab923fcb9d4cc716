// /docs/asyncapi: the bundled asyncapi.yaml rendered by @asyncapi/react-component's standalone
// bundle (React and the AsyncAPI parser included), its assets served from the installed package
// (no CDN). The document is embedded in the page as JSON, so the page loads nothing else.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Env, Hono } from 'hono';
import { objectOrEmpty, stringOrUndefined, type JsonObject } from '../../conformance/specModel/index.js';
import { escapeHtml, navBar, navBarCss } from './docLinks.js';
import { registerStaticAssets } from './staticAssets.js';

const require = createRequire(import.meta.url);
const packageDir = path.dirname(require.resolve('@asyncapi/react-component/package.json'));

/** JSON that is safe inside a <script> element: no `<` can close it, no `&` or `>` can confuse a parser. */
const scriptSafeJson = (value: unknown) => JSON.stringify(value).replace(/[<>&]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);

export function renderAsyncapiPage(doc: JsonObject): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(stringOrUndefined(objectOrEmpty(doc.info).title) ?? '')}</title>
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/asyncapi/assets/default.min.css">
  <style>${navBarCss}body{margin:0;font-family:system-ui,sans-serif}</style>
</head>
<body>
  ${navBar('/docs/asyncapi')}
  <div id="asyncapi"></div>
  <script type="application/json" id="asyncapi-document">${scriptSafeJson(doc)}</script>
  <script src="/docs/asyncapi/assets/standalone.js"></script>
  <script src="/docs/asyncapi/assets/init.js"></script>
</body>
</html>
`;
}

// The document names the default local start as the host of its STOMP server (or a host template
// with variables whose defaults are that start). The page shows the address the browser actually
// used instead: as the host, and wherever the declared address is quoted in the server's texts or
// in info.description. Only servers a client connects to over WebSocket are changed (not, e.g., an
// in-process one). Variables the host no longer uses are dropped (the parser rejects unused ones).
export const asyncapiInitScript = `const asyncapi = JSON.parse(document.getElementById('asyncapi-document').textContent);
for (const server of Object.values(asyncapi.servers ?? {})) {
  if (!['stomp', 'stomps', 'ws', 'wss'].includes(server.protocol)) continue;
  const declared = String(server.host).replace(/\\{([^}]+)\\}/g, (whole, name) => server.variables?.[name]?.default ?? whole);
  for (const [texts, key] of [[server, 'summary'], [server, 'description'], [asyncapi.info, 'description']]) {
    if (typeof texts?.[key] === 'string') texts[key] = texts[key].split(declared).join(window.location.host);
  }
  server.host = window.location.host;
  const stillUsed = Object.keys(server.variables ?? {}).filter((name) => String(server.pathname ?? '').includes('{' + name + '}'));
  if (stillUsed.length > 0) server.variables = Object.fromEntries(stillUsed.map((name) => [name, server.variables[name]]));
  else delete server.variables;
}
AsyncApiStandalone.render({ schema: asyncapi, config: { show: { sidebar: true } } }, document.getElementById('asyncapi'));
`;

export function registerAsyncapiAssets<E extends Env>(app: Hono<E>): void {
  registerStaticAssets(app, '/docs/asyncapi/assets', {
    'init.js': { text: asyncapiInitScript, type: 'text/javascript; charset=utf-8' },
    'standalone.js': { file: path.join(packageDir, 'browser/standalone/index.js'), type: 'text/javascript; charset=utf-8' },
    'default.min.css': { file: path.join(packageDir, 'styles/default.min.css'), type: 'text/css; charset=utf-8' },
  });
}
