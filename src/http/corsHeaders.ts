// CORS as hono/cors does it (the preflight is hono/cors itself), but for every other request its
// headers are set through withResponseHeaders, because hono/cors writes them into `c.res` before the
// handler runs, which makes every response take node-server's slow path (responseHeaders.ts).
import type { Context, MiddlewareHandler, Next } from 'hono';
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
  /** With listed origins: the request's headers, then Vary after the handler's own (e.g. Accept), as hono/cors appends it. */
  const withListedOrigin = async (c: Context<HttpEnv>, next: Next): Promise<void> => {
    const origin = c.req.header('origin');
    const headers =
      origin !== undefined && allowed.has(origin) ? { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': exposed } : withoutOrigin;
    await withResponseHeaders(c, headers, next);
    c.res.headers.append('Vary', 'Origin');
  };
  // Not async itself: with any origin there is no Vary to add afterwards, so the request passes on
  // with no promise of this middleware's own; the enclosing request logging sets the headers on a
  // response `respond` did not make.
  return (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    if (!anyOrigin) return withListedOrigin(c, next);
    addResponseHeaders(c, withAnyOrigin);
    return next();
  };
}
