// The WebSocket upgrade of /ws-stomp, on node's HTTP server itself rather than @hono/node-server's
// built-in upgrade, which keeps the upgrade request's whole Hono context (Request, Headers, URL,
// variables, several closures) alive for as long as the WebSocket is open: about 20 KiB per idle
// connection. Here the upgrade request still passes through the app exactly like any other request
// (request id, log line, metrics, rate limit, connection caps, and whatever middleware comes later),
// and its /ws-stomp route only says "admitted" (having counted the WebSocket for its client, when
// the caps count it there); then `ws` takes the socket, and nothing of the request is kept but the
// `Authorization` header (the token's fallback, asyncapi.yaml bearerAuth).
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import type { Context, Next } from 'hono';
import type { WebSocket, WebSocketServer } from 'ws';
import { AppError } from '../kernel/appError.js';
import type { Logger } from '../kernel/logger.js';

const ADMITTED = Symbol('stompUpgradeAdmitted');

/** What the app's fetch is called with for an upgrade request (@hono/node-server's HttpBindings, plus the admission mark). */
export interface UpgradeBindings {
  incoming: IncomingMessage;
  outgoing: undefined;
  /** set by the /ws-stomp route (stompUpgradeRoute) when the request reached it: what to call once the socket closes */
  [ADMITTED]?: () => void;
}

/**
 * Counts the WebSocket a request asks for against its client (the connection caps behind proxies):
 * returns what releases it, or null when the client holds as many as it may.
 */
export type UpgradeHold = (c: Context) => (() => void) | null;

const NOTHING_HELD = (): void => undefined;

export type AppFetch = (request: Request, env: UpgradeBindings) => Response | Promise<Response>;

/**
 * The /ws-stomp route: marks an upgrade request that got through every middleware as admitted,
 * or refuses it (429 COMMON429) when `hold` says its client holds too many WebSockets. Anything
 * else (a plain GET, or the app called without the upgrade bindings) goes on to the next handler,
 * which answers 404 as for any unknown path.
 */
export function stompUpgradeRoute(hold?: UpgradeHold): (c: Context, next: Next) => Response | Promise<void> {
  return (c, next) => {
    const env = c.env as Partial<UpgradeBindings> | undefined;
    if (!env?.incoming || c.req.header('upgrade')?.toLowerCase() !== 'websocket') return next();
    const release = hold ? hold(c) : NOTHING_HELD;
    if (release === null)
      throw new AppError('COMMON429', 'Too many open connections from this address; close one or retry in 5 seconds.', { headers: { 'Retry-After': '5' } });
    env[ADMITTED] = release;
    return c.body(null, 200);
  };
}

// What the app's answer may not add to a 101 (hop-by-hop, and what `ws` writes itself).
const SKIPPED_HEADERS = new Set([
  'connection',
  'content-length',
  'content-type',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'sec-websocket-accept',
  'sec-websocket-extensions',
  'sec-websocket-protocol',
]);

function headerLines(headers: Headers): string[] {
  const lines: string[] = [];
  headers.forEach((value, name) => {
    if (!SKIPPED_HEADERS.has(name.toLowerCase())) lines.push(`${name}: ${value}`);
  });
  return lines;
}

function refuse(socket: Duplex, status: number, headers: string[] = []): void {
  if (socket.destroyed) return;
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${['Connection: close', 'Content-Length: 0', ...headers].join('\r\n')}\r\n\r\n`);
}

function upgradeRequest(req: IncomingMessage): Request {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.append(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(url, { headers });
}

/**
 * Answers `server`'s upgrade requests: each goes through `fetch` (the app, or a front of it); an
 * admitted one becomes a WebSocket handed to `accept` with the app's response headers (X-Request-Id,
 * RateLimit-*) on the 101, a refused one gets the app's status and headers and is closed.
 */
export function handleUpgrades(
  server: Server,
  wss: WebSocketServer,
  fetch: AppFetch,
  accept: (ws: WebSocket, authorization: string | undefined) => void,
  log: Logger,
): void {
  // Set just before handleUpgrade, which writes the 101 synchronously (no verifyClient).
  let extraHeaders: string[] = [];
  wss.on('headers', (headers) => headers.push(...extraHeaders));

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Until a WebSocket owns the socket, a reset by the client must not become an uncaught 'error'.
    const ignore = () => undefined;
    socket.on('error', ignore);
    if (req.headers.upgrade?.toLowerCase() !== 'websocket') return refuse(socket, 400);
    const env: UpgradeBindings = { incoming: req, outgoing: undefined };
    let request: Request;
    try {
      request = upgradeRequest(req);
    } catch {
      return refuse(socket, 400);
    }
    Promise.resolve(fetch(request, env)).then(
      (response) => {
        const release = env[ADMITTED];
        if (socket.destroyed) return release?.();
        if (!release) return refuse(socket, response.status, headerLines(response.headers));
        // Whatever becomes of the upgrade, the socket closes once (nothing to listen for when nothing is held).
        if (release !== NOTHING_HELD) socket.once('close', release);
        extraHeaders = headerLines(response.headers);
        try {
          wss.handleUpgrade(req, socket, head, (ws) => {
            // The WebSocket handles its socket's errors from here on.
            socket.off('error', ignore);
            accept(ws, req.headers.authorization);
          });
        } finally {
          extraHeaders = [];
        }
      },
      (error: unknown) => {
        log.error({ err: error }, 'websocket upgrade failed');
        refuse(socket, 500);
      },
    );
  });
}
