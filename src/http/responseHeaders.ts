// Headers that every response of a request carries (X-Request-Id, CORS, RateLimit-*), kept as a plain
// record per request and written straight into the responses made with `respond` (every operation's
// answer and every error), so that @hono/node-server sends them from that record: no fetch Headers
// object is built for them and the response stays on node-server's fast path. Reading or changing
// `c.res` before the handler, as hono/cors does, instead makes Hono rebuild the handler's response
// from a full fetch Response whose body node-server then streams back out: that cost about a third
// of the server's CPU per list request (profiled with `npm run bench -- request --profile`). A
// response made otherwise (static assets, c.json elsewhere) gets them set afterwards, by the
// outermost withResponseHeaders (requestLogging.ts), which sets every recorded one.
import type { Context, Next } from 'hono';
import type { HttpEnv } from './httpEnv.js';

/** Marks a response made by `respond`, which carries every request-wide header already. */
const complete = Symbol('carries the request-wide headers');
type Marked = Response & { [complete]?: true };

/** Records request-wide headers for the response, whoever makes it; the enclosing withResponseHeaders sets them on one `respond` did not make. */
export function addResponseHeaders(c: Context<HttpEnv>, headers: Readonly<Record<string, string>>): void {
  let wide = c.get('responseHeaders');
  if (wide === undefined) c.set('responseHeaders', (wide = {}));
  for (const name in headers) wide[name] = headers[name]!;
}

export async function withResponseHeaders(c: Context<HttpEnv>, headers: Readonly<Record<string, string>>, next: Next): Promise<void> {
  addResponseHeaders(c, headers);
  await next();
  if ((c.res as Marked)[complete]) return;
  const sent = c.res.headers;
  const wide = c.get('responseHeaders')!;
  for (const name in wide) sent.set(name, wide[name]!);
}

/**
 * A response with `headers` and the request-wide headers (which win on a clash, as when set
 * afterwards), its content type first when given; one record is built for all of them.
 */
export function respond(
  c: Context<HttpEnv>,
  body: string | null,
  status: number,
  headers: Readonly<Record<string, string>> | undefined,
  contentType?: string,
): Response {
  const all: Record<string, string> = contentType === undefined ? { ...headers } : { 'content-type': contentType, ...headers };
  const wide = c.get('responseHeaders');
  for (const name in wide) all[name] = wide[name]!;
  const response: Marked = new Response(body, { status, headers: all });
  response[complete] = true;
  return response;
}

/** A JSON response with the request-wide headers; `write` is the response's generated writer (generated/serializers.ts) where it has one. */
export function respondJson(
  c: Context<HttpEnv>,
  value: unknown,
  status: number,
  headers: Readonly<Record<string, string>> | undefined,
  write: (value: unknown) => string = JSON.stringify,
): Response {
  return respond(c, write(value), status, headers, 'application/json');
}
