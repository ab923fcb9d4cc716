// CORS as hono/cors does it (the preflight is hono/cors itself), but for every other request its
// headers are set through withResponseHeaders, because hono/cors writes them into `c.res` before the
// handler runs, which makes every response take node-server's slow path (responseHeaders.ts).
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { HttpEnv } from './httpEnv.js';
import { withResponseHeaders } from './responseHeaders.js';

export interface CorsOptions {
  /** '*' or the allowed origins */
  origin: '*' | string[];
  allowHeaders: string[];
  exposeHeaders: string[];
  maxAge: number;
}

export function corsHeaders(options: CorsOptions): MiddlewareHandler<HttpEnv> {
  const preflight = cors(options);
  const exposed = options.exposeHeaders.join(',');
  const anyOrigin = options.origin === '*';
  const allowed = new Set(options.origin);
  const withAnyOrigin = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': exposed };
  const withoutOrigin = { 'Access-Control-Expose-Headers': exposed };
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    let headers: Record<string, string> = withAnyOrigin;
    if (!anyOrigin) {
      const origin = c.req.header('origin');
      headers =
        origin !== undefined && allowed.has(origin) ? { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': exposed } : withoutOrigin;
    }
    await withResponseHeaders(c, headers, next);
    // After the handler's own Vary (e.g. Accept), as hono/cors appends it.
    if (!anyOrigin) c.res.headers.append('Vary', 'Origin');
  };
}
