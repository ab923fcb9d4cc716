// A bare STOMP peer on `ws` for tests that must send what no well-behaved client library would
// (thousands of SUBSCRIBEs, odd destinations) or stop reading. Records every frame the server sends.
import WebSocket from 'ws';
import { wsUrl } from './stompTestClient.js';
import { webSocketText } from './webSocketText.js';

export interface ServerFrame {
  command: string;
  headers: Record<string, string>;
  body: string;
}

export interface RawStompSocket {
  socket: WebSocket;
  frames: ServerFrame[];
  /** resolves with the close code once the server has closed the connection */
  closed: Promise<number>;
  send(frame: string): void;
  subscribe(id: string, destination: string, receipt?: string): void;
  /** resolves with the first frame (already received or arriving later) that matches; rejects if the connection closes first */
  waitFor(predicate: (frame: ServerFrame) => boolean): Promise<ServerFrame>;
  /** whichever comes first: the RECEIPT for `receiptId`, or the server closing the connection */
  receiptOrClose(receiptId: string): Promise<'RECEIPT' | 'closed'>;
  /** the first ERROR frame's error-code, or undefined */
  errorCode(): string | undefined;
  close(): void;
}

function parseFrame(text: string): ServerFrame {
  const [head = '', ...rest] = text.split('\n\n');
  const [command = '', ...lines] = head.split('\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0 && !(line.slice(0, colon) in headers)) headers[line.slice(0, colon)] = line.slice(colon + 1);
  }
  return { command, headers, body: rest.join('\n\n') };
}

/** Opens the WebSocket and sends CONNECT; resolves after CONNECTED or after the server refused. */
export async function openRawStomp(httpUrl: string, token: string): Promise<RawStompSocket> {
  const socket = new WebSocket(wsUrl(httpUrl), ['v12.stomp']);
  const frames: ServerFrame[] = [];
  const waiters: { predicate: (f: ServerFrame) => boolean; resolve: (f: ServerFrame) => void; reject: (e: Error) => void }[] = [];
  let pending = '';
  socket.on('message', (data) => {
    pending += webSocketText(data);
    let end: number;
    while ((end = pending.indexOf('\0')) >= 0) {
      const text = pending.slice(0, end).replace(/^[\r\n]+/, '');
      pending = pending.slice(end + 1);
      if (!text) continue;
      const frame = parseFrame(text);
      frames.push(frame);
      for (const waiter of [...waiters]) {
        if (waiter.predicate(frame)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(frame);
        }
      }
    }
  });
  const closed = new Promise<number>((resolve) =>
    socket.on('close', (code) => {
      const summary = frames.map((f) => f.headers['error-code'] ?? f.command).join(',');
      for (const waiter of waiters.splice(0)) waiter.reject(new Error(`closed (${code}) before the expected frame; got ${summary}`));
      resolve(code);
    }),
  );
  const api: RawStompSocket = {
    socket,
    frames,
    closed,
    send: (frame) => socket.send(frame),
    subscribe: (id, destination, receipt) => socket.send(`SUBSCRIBE\nid:${id}\ndestination:${destination}\n${receipt ? `receipt:${receipt}\n` : ''}\n\0`),
    waitFor(predicate) {
      const found = frames.find(predicate);
      if (found) return Promise.resolve(found);
      if (socket.readyState === WebSocket.CLOSED) return Promise.reject(new Error('already closed'));
      return new Promise((resolve, reject) => waiters.push({ predicate, resolve, reject }));
    },
    receiptOrClose: (receiptId) =>
      Promise.race([
        api
          .waitFor((f) => f.command === 'RECEIPT' && f.headers['receipt-id'] === receiptId)
          .then(
            () => 'RECEIPT' as const,
            () => 'closed' as const,
          ),
        closed.then(() => 'closed' as const),
      ]),
    errorCode: () => frames.find((f) => f.command === 'ERROR')?.headers['error-code'],
    close: () => socket.close(),
  };
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  socket.send(`CONNECT\naccept-version:1.2\nhost:localhost\nAuthorization:Bearer ${token}\n\n\0`);
  await Promise.race([api.waitFor((f) => f.command === 'CONNECTED' || f.command === 'ERROR').catch(() => undefined), closed]);
  return api;
}
