// A real STOMP client (@stomp/stompjs, unchanged) for tests, on `ws` since Node 20 has no global
// WebSocket. Records every MESSAGE in arrival order across subscriptions, and ERROR frames; and,
// read off the socket next to stompjs, every frame the server sent (for the frame contract checks).
import { Client, type IFrame, type IMessage, type IStompSocket } from '@stomp/stompjs';
import WebSocket from 'ws';
import { createFrameReader, type ObservedFrame } from './documentedFrames.js';

export interface ReceivedMessage {
  destination: string;
  headers: Record<string, string>;
  body: any;
}

export interface StompTestClient {
  client: Client;
  messages: ReceivedMessage[];
  errors: IFrame[];
  /** every frame the server sent on this connection, in order */
  frames: ObservedFrame[];
  closed: Promise<{ code: number }>;
  /** subscribes and resolves once the server's RECEIPT arrived (the subscription is live) */
  subscribe(destination: string): Promise<string>;
  send(destination: string, body: string, headers?: Record<string, string>): Promise<void>;
  /** resolves when a message matching `predicate` has arrived (or rejects after `timeoutMs`) */
  waitFor(predicate: (m: ReceivedMessage) => boolean, timeoutMs?: number): Promise<ReceivedMessage>;
  disconnect(): Promise<void>;
}

export function wsUrl(httpUrl: string): string {
  return `${httpUrl.replace(/^http/, 'ws')}/ws-stomp`;
}

export interface ConnectOptions {
  heartbeatMs?: number;
  /** sent as `Authorization: Bearer <token>` on the WebSocket upgrade request (asyncapi.yaml, bearerAuth) */
  upgradeToken?: string;
}

/** Connects (`token` in the CONNECT frame, if any); resolves after CONNECTED, or after the ERROR frame if the server refuses. */
export function connectStomp(url: string, token: string | null, options: ConnectOptions = {}): Promise<StompTestClient> {
  const messages: ReceivedMessage[] = [];
  const errors: IFrame[] = [];
  const frames: ObservedFrame[] = [];
  const readFrames = createFrameReader();
  const waiters: { predicate: (m: ReceivedMessage) => boolean; resolve: (m: ReceivedMessage) => void }[] = [];
  let receiptCounter = 0;
  let subscriptionCounter = 0;
  let resolveClosed!: (value: { code: number }) => void;
  const closed = new Promise<{ code: number }>((resolve) => (resolveClosed = resolve));

  const client = new Client({
    webSocketFactory: () => {
      const headers = options.upgradeToken ? { Authorization: `Bearer ${options.upgradeToken}` } : {};
      const socket = new WebSocket(url, ['v12.stomp', 'v11.stomp', 'v10.stomp'], { headers });
      // stompjs sets binaryType to arraybuffer, so `ws` hands listeners an ArrayBuffer (a Buffer before that).
      socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => frames.push(...readFrames(Array.isArray(data) ? Buffer.concat(data) : new Uint8Array(data))));
      return socket as unknown as IStompSocket;
    },
    connectHeaders: token ? { Authorization: `Bearer ${token}` } : {},
    reconnectDelay: 0,
    heartbeatIncoming: options.heartbeatMs ?? 0,
    heartbeatOutgoing: options.heartbeatMs ?? 0,
  });

  const record = (message: IMessage) => {
    const received = { destination: message.headers.destination!, headers: { ...message.headers }, body: JSON.parse(message.body) };
    messages.push(received);
    for (const waiter of [...waiters]) {
      if (waiter.predicate(received)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(received);
      }
    }
  };

  const api: StompTestClient = {
    client,
    messages,
    errors,
    frames,
    closed,
    subscribe(destination) {
      const receipt = `r-${++receiptCounter}`;
      const id = `sub-${++subscriptionCounter}`;
      return new Promise((resolve, reject) => {
        client.watchForReceipt(receipt, () => resolve(id));
        closed.then(() => reject(new Error(`closed before the receipt for ${destination}: ${errors.map((e) => e.headers['error-code']).join(',')}`)));
        client.subscribe(destination, record, { id, receipt });
      });
    },
    send(destination, body, headers = {}) {
      const receipt = `r-${++receiptCounter}`;
      return new Promise((resolve, reject) => {
        client.watchForReceipt(receipt, () => resolve());
        closed.then(() => reject(new Error(`closed before the receipt for SEND ${destination}`)));
        client.publish({ destination, body, headers: { ...headers, receipt, 'content-type': 'application/json' } });
      });
    },
    waitFor(predicate, timeoutMs = 10_000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { predicate, resolve: (m: ReceivedMessage) => (clearTimeout(timer), resolve(m)) };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no matching message within ${timeoutMs} ms; got ${messages.length}: ${JSON.stringify(messages.map((m) => [m.destination, m.body.type ?? m.body.messageStreamType ?? m.body.code]))}`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    async disconnect() {
      await client.deactivate();
    },
  };

  return new Promise((resolve) => {
    client.onConnect = () => resolve(api);
    client.onStompError = (frame) => {
      errors.push(frame);
      resolve(api);
    };
    client.onWebSocketClose = (event) => {
      resolveClosed({ code: (event as { code: number }).code });
      resolve(api);
    };
    client.activate();
  });
}
