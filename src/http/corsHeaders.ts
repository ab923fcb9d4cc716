// CORS as hono/cors does it (the preflight is hono/cors itself), but for every other request its
// headers are set through withResponseHeaders, because hono/cors writes them into `c.res` before the
// handler runs, which makes every response take node-server's slow path (responseHeaders.ts).
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { HttpEnv } from './httpEnv.js';
import { addResponseHeaders, withResponseHeaders } from './responseHeaders.js';

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
    if (anyOrigin) {
      // No Vary to add afterwards: the enclosing request logging sets them where needed, and this
      // request takes no extra await here.
      addResponseHeaders(c, withAnyOrigin);
      return next();
    }
    const origin = c.req.header('origin');
    const headers =
      origin !== undefined && allowed.has(origin) ? { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': exposed } : withoutOrigin;
    await withResponseHeaders(c, headers, next);
    // After the handler's own Vary (e.g. Accept), as hono/cors appends it.
    c.res.headers.append('Vary', 'Origin');
  };
}
