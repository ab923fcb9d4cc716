// Swagger UI for /openapi.yaml, with its assets served from the swagger-ui-dist package (no CDN).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Hono } from 'hono';

const require = createRequire(import.meta.url);
const assetsDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const assets: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

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
  const cache = new Map<string, Buffer>();
  app.get('/docs/assets/init.js', (c) => c.body(initScript, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=3600' }));
  app.get('/docs/assets/:file', (c) => {
    const file = c.req.param('file');
    const type = assets[file];
    if (!type) return c.notFound();
    let content = cache.get(file);
    if (!content) {
      content = fs.readFileSync(path.join(assetsDir, file));
      cache.set(file, content);
    }
    return c.body(new Uint8Array(content), 200, { 'content-type': type, 'cache-control': 'public, max-age=86400' });
  });
}
