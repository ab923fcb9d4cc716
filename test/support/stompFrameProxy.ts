// A WebSocket proxy between a STOMP client and a server that rewrites frames on their way: a server
// breaking the frame contract on purpose (an undeclared header, a missing one, a position that
// skips), without touching the server. The server sends one frame per WebSocket message (or a
// heart-beat), so each message is handed to the rewrite whole; the client's are too.
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer, type RawData } from 'ws';

export interface FrameRewrite {
  /** a frame the server sent, as text; null drops it */
  toClient?: (frame: string) => string | null;
  /** a frame the client sent, as text */
  toServer?: (frame: string) => string;
}

export interface StompFrameProxy {
  /** the proxy's STOMP endpoint, for the client */
  url: string;
  close(): Promise<void>;
}

const SUBPROTOCOLS = ['v12.stomp', 'v11.stomp', 'v10.stomp'];
const text = (data: RawData): string => (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer)).toString('utf8');
/** A close code the other side may be sent (1005, 1006 and 1015 only describe a close). */
const sendable = (code: number) => (code >= 1000 && code <= 4999 && ![1004, 1005, 1006, 1015].includes(code) ? code : 1000);

/** `rewriteFor` is called once per connection: a rewrite may keep what it saw on its connection. */
export async function startStompFrameProxy(upstreamUrl: string, rewriteFor: () => FrameRewrite): Promise<StompFrameProxy> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: (offered) => SUBPROTOCOLS.find((p) => offered.has(p)) ?? false });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  server.on('connection', (client, request) => {
    const rewrite = rewriteFor();
    const authorization = request.headers.authorization;
    const upstream = new WebSocket(upstreamUrl, client.protocol ? [client.protocol] : SUBPROTOCOLS, authorization ? { headers: { authorization } } : {});
    const waiting: string[] = [];
    upstream.on('open', () => waiting.splice(0).forEach((frame) => upstream.send(frame)));
    client.on('message', (data) => {
      const frame = rewrite.toServer ? rewrite.toServer(text(data)) : text(data);
      if (upstream.readyState === WebSocket.OPEN) upstream.send(frame);
      else waiting.push(frame);
    });
    upstream.on('message', (data) => {
      const frame = rewrite.toClient ? rewrite.toClient(text(data)) : text(data);
      if (frame !== null && client.readyState === WebSocket.OPEN) client.send(frame);
    });
    upstream.on('close', (code, reason) => client.close(sendable(code), reason));
    client.on('close', (code, reason) => (upstream.readyState === WebSocket.CONNECTING ? upstream.terminate() : upstream.close(sendable(code), reason)));
    upstream.on('error', () => client.terminate());
    client.on('error', () => upstream.terminate());
  });
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}

/**
 * A frame of `command` with its header lines rewritten by `change` (each line as sent: `name:value`,
 * escaped), the body untouched; any other frame as it is.
 */
export function withHeaderLines(frame: string, command: string, change: (lines: string[]) => string[]): string {
  const headEnd = frame.indexOf('\n\n');
  const [first, ...lines] = frame.slice(0, headEnd).split('\n');
  if (headEnd < 0 || first !== command) return frame;
  return [first, ...change(lines)].join('\n') + frame.slice(headEnd);
}

/** The value of a header line of a frame (as sent, escaped), or undefined. */
export function headerValue(frame: string, name: string): string | undefined {
  const head = frame.slice(0, Math.max(0, frame.indexOf('\n\n')));
  return head
    .split('\n')
    .find((line) => line.startsWith(`${name}:`))
    ?.slice(name.length + 1);
}
