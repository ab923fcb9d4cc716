// Headers that every response of a request carries (X-Request-Id, CORS, RateLimit-*), kept as a plain
// record per request and written straight into the responses made with `respond` (every operation's
// answer and every error), so that @hono/node-server sends them from that record: no fetch Headers
// object is built for them and the response stays on node-server's fast path. Reading or changing
// `c.res` before the handler, as hono/cors does, instead makes Hono rebuild the handler's response
// from a full fetch Response whose body node-server then streams back out: that cost about a third
// of the server's CPU per list request (profiled with `npm run bench -- request --profile`). A
// response made otherwise (static assets, c.json elsewhere) gets them set afterwards.
import type { Context, Next } from 'hono';
import type { HttpEnv } from './httpEnv.js';

/** responses made by `respond`, which carry every request-wide header already */
const complete = new WeakSet<Response>();

export async function withResponseHeaders(c: Context<HttpEnv>, headers: Readonly<Record<string, string>>, next: Next): Promise<void> {
  let wide = c.get('responseHeaders');
  if (wide === undefined) c.set('responseHeaders', (wide = {}));
  for (const name in headers) wide[name] = headers[name]!;
  await next();
  if (complete.has(c.res)) return;
  const sent = c.res.headers;
  for (const name in headers) sent.set(name, headers[name]!);
}

/** A response with `headers` and the request-wide headers (which win on a clash, as when set afterwards). */
export function respond(c: Context<HttpEnv>, body: string | null, status: number, headers: Readonly<Record<string, string>>): Response {
  const response = new Response(body, { status, headers: { ...headers, ...c.get('responseHeaders') } });
  complete.add(response);
  return response;
}

/** A JSON response with the request-wide headers; `write` is the response's generated writer (generated/serializers.ts) where it has one. */
export function respondJson(
  c: Context<HttpEnv>,
  value: unknown,
  status: number,
  headers: Readonly<Record<string, string>>,
  write: (value: unknown) => string = JSON.stringify,
): Response {
  return respond(c, write(value), status, { 'content-type': 'application/json', ...headers });
}
