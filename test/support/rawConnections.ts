// Connections a test holds open or fills slowly, and requests from a chosen loopback address (Linux
// routes all of 127.0.0.0/8 to the loopback interface, so 127.0.0.2 is a second client address), for
// the connection caps and time limits of the HTTP server.
import http from 'node:http';
import net from 'node:net';
import WebSocket from 'ws';
import { wsUrl } from './stompTestClient.js';

export interface HeldConnection {
  socket: net.Socket;
  /** what the server sent so far */
  received(): string;
  /** resolves when the server (or the test) closed the connection */
  closed: Promise<void>;
  readonly isClosed: boolean;
}

/** A TCP connection to `port` that sends nothing unless the test writes to it. */
export function holdConnection(port: number, localAddress = '127.0.0.1'): Promise<HeldConnection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    let text = '';
    let isClosed = false;
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((done) =>
      socket.once('close', () => {
        isClosed = true;
        done();
      }),
    );
    socket.once('connect', () =>
      resolve({
        socket,
        received: () => text,
        closed,
        get isClosed() {
          return isClosed;
        },
      }),
    );
    socket.once('error', reject);
  });
}

/** Resolves with 'closed', or with 'open' when the connection is still open after `limitMs` (a bound on a hang, not a speed). */
export function closedWithin(connection: HeldConnection, limitMs: number): Promise<'closed' | 'open'> {
  return Promise.race([connection.closed.then(() => 'closed' as const), new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), limitMs).unref())]);
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request on a connection of its own from `localAddress`; rejects when the server closes it without an answer. */
export function requestFrom(
  port: number,
  method: string,
  path: string,
  options: { localAddress?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const { localAddress = '127.0.0.1', headers = {}, body } = options;
    const request = http.request({ host: '127.0.0.1', port, method, path, localAddress, agent: false, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** GET `path` on a connection of its own from `localAddress`. */
export const getFrom = (port: number, path: string, localAddress = '127.0.0.1', headers: Record<string, string> = {}): Promise<RawResponse> =>
  requestFrom(port, 'GET', path, { localAddress, headers });

/** The code of an ErrorEnvelope body. */
export const errorCodeIn = (response: RawResponse): unknown => (JSON.parse(response.body) as { data?: { code?: unknown } }).data?.code;

/** An upgrade's outcome: 101 and the open WebSocket, or the HTTP status (and Retry-After) that refused it. */
export interface Upgrade {
  status: number;
  retryAfter?: string;
  socket?: WebSocket;
}

/** Opens a WebSocket to the STOMP endpoint; resolves once it is open, or refused. */
export function upgradeFrom(httpUrl: string, localAddress = '127.0.0.1', headers: Record<string, string> = {}): Promise<Upgrade> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl(httpUrl), ['v12.stomp'], { localAddress, headers });
    socket.once('open', () => resolve({ socket, status: 101 }));
    socket.once('unexpected-response', (_request, response) => {
      resolve({ status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'] });
      response.resume();
      socket.terminate();
    });
    // After a refusal the terminated socket may still report an error: the promise is settled by then.
    socket.on('error', reject);
  });
}
