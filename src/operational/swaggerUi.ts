// Swagger UI for /openapi.yaml, with its assets served from the swagger-ui-dist package (no CDN),
// and /docs/assets/, the files the docs pages share.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Env, Hono } from 'hono';
import { operationPath } from '../kernel/operationPath.js';
import { builtBrowserFile, swaggerUiInit } from './browserScripts.js';
import { escapeHtml, navBar, navBarCss } from './docLinks.js';
import { signInAssets } from './signInSection.js';
import { registerStaticAssets } from './staticAssets.js';

const require = createRequire(import.meta.url);
const assetsDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const fromPackage = (file: string, type: string) => ({ file: path.join(assetsDir, file), type });

export const swaggerUiPage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Trip Itinerary Service API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
  <style>${navBarCss}body{margin:0}</style>
</head>
<body>
  ${navBar('/docs')}
  <div id="swagger-ui" data-me="${escapeHtml(operationPath('getMe', {}))}" data-reissue="${escapeHtml(operationPath('reissueToken', {}))}"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script type="module" src="/docs/assets/init.js"></script>
</body>
</html>
`;

/** Static asset routes and /docs/ (a redirect); the page itself is the getApiDocs operation. */
export function registerSwaggerUiAssets<E extends Env>(app: Hono<E>): void {
  // The trailing-slash address people type; relative asset URLs are not used, so a redirect suffices.
  app.get('/docs/', (c) => {
    // Only for the address as typed: `/docs/assets/%2e%2e` also arrives here once its dot segments
    // are normalised away, and it names no file we serve (404).
    const rawPath = (c.env as { incoming?: { url?: string } } | undefined)?.incoming?.url?.split('?')[0];
    if (rawPath !== undefined && rawPath !== '/docs/') return c.notFound();
    return c.redirect('/docs', 301);
  });
  registerStaticAssets(app, '/docs/assets', {
    // Its start (signIn/swaggerUiInit.ts, compiled by the build): this server as the document's server, and the tab's sign-in.
    'init.js': { file: builtBrowserFile(swaggerUiInit), type: 'text/javascript; charset=utf-8' },
    'swagger-ui.css': fromPackage('swagger-ui.css', 'text/css; charset=utf-8'),
    'swagger-ui-bundle.js': fromPackage('swagger-ui-bundle.js', 'text/javascript; charset=utf-8'),
    'favicon-32x32.png': fromPackage('favicon-32x32.png', 'image/png'),
    // Here too: the landing page's and every docs page's share of the tab's sign-in.
    ...signInAssets,
  });
}
