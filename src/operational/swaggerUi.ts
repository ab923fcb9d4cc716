// Swagger UI for /openapi.yaml, with its assets served from the swagger-ui-dist package (no CDN).
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Env, Hono } from 'hono';
import { navBar, navBarCss } from './docLinks.js';
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
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/init.js"></script>
</body>
</html>
`;

// "Try it out" must call the server that serves this page, at whatever address the browser reached
// it; the document's own `servers` name the default local start. The raw /openapi.yaml is left as
// written: only this page's copy of the parsed document gets the page's origin as its server.
// No online validator (validatorUrl) and no top bar with its "Explore" box: the page loads only
// this server's document, from this server.
const initScript = `const thisServer = () => ({
  statePlugins: {
    spec: {
      wrapActions: {
        updateJsonSpec: (update) => (spec) =>
          update({ ...spec, servers: [{ url: window.location.origin, description: 'This server (the one serving these docs)' }] }),
      },
    },
  },
});
window.ui = SwaggerUIBundle({
  url: '/openapi.yaml',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  plugins: [thisServer],
  layout: 'BaseLayout',
  validatorUrl: 'none',
});
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
    'init.js': { text: initScript, type: 'text/javascript; charset=utf-8' },
    'swagger-ui.css': fromPackage('swagger-ui.css', 'text/css; charset=utf-8'),
    'swagger-ui-bundle.js': fromPackage('swagger-ui-bundle.js', 'text/javascript; charset=utf-8'),
    'favicon-32x32.png': fromPackage('favicon-32x32.png', 'image/png'),
  });
}
