// Swagger UI for /openapi.yaml, with its assets served from the swagger-ui-dist package (no CDN).
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Hono } from 'hono';
import { assetsIn, registerStaticAssets } from './staticAssets.js';

const require = createRequire(import.meta.url);
const assets = assetsIn(path.dirname(require.resolve('swagger-ui-dist/package.json')), {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
});

export const swaggerUiPage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Trip Itinerary Service API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/assets/init.js"></script>
</body>
</html>
`;

const initScript = `window.ui = SwaggerUIBundle({
  url: '/openapi.yaml',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
});
`;

/** Static asset routes; the page itself is the getApiDocs operation. */
export function registerSwaggerUiAssets(app: Hono<any>): void {
  app.get('/docs/assets/init.js', (c) => c.body(initScript, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=3600' }));
  registerStaticAssets(app, { prefix: '/docs/assets', assets, cacheSeconds: 86400 });
}
