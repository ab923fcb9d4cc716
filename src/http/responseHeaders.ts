// Headers that every response of a request carries (X-Request-Id, CORS, RateLimit-*), set the way
// that keeps @hono/node-server on its fast path. Set before the handler runs, they go into Hono's
// prepared headers, which every response made with c.json / c.body takes in. Reading or changing
// `c.res` before the handler instead makes Hono rebuild the handler's response from a full fetch
// Response, whose body node-server then streams back out: that cost about a third of the server's
// CPU per list request (profiled, scripts/benchRequestPath.ts). A response made without them (a
// bare `new Response`) gets them afterwards.
import type { Context, Next } from 'hono';

export async function withResponseHeaders(c: Context, headers: Readonly<Record<string, string>>, next: Next): Promise<void> {
  for (const name in headers) c.header(name, headers[name]);
  await next();
  let missing: Headers | undefined;
  for (const name in headers) {
    // Only now is c.res read: after the handler, reading it no longer rebuilds anything.
    missing ??= c.res.headers;
    if (!missing.has(name)) missing.set(name, headers[name]!);
  }
}
