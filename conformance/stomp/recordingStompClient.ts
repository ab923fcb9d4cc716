// The recording STOMP client: the conformance runner's probe and the test suite's client. A real,
// third-party client (@stomp/stompjs, unchanged) that records every MESSAGE in arrival order across
// subscriptions and every ERROR frame, and waits for the server's RECEIPT of a SUBSCRIBE or SEND, so
// a subscription counts as live only once the server says so.
import type { Client, IFrame, IMessage } from '@stomp/stompjs';
import { jsonAt, type Json } from '../specModel/index.js';
import { createStompClient } from './stompOverWs.js';

export interface ReceivedMessage {
  destination: string;
  headers: Record<string, string>;
  /** the body as JSON; undefined when it is not JSON */
  body: Json | undefined;
  raw: string;
}

/** A frame the server sent: its command and headers (as stompjs decoded them). */
export interface ServerFrame {
  command: string;
  headers: Record<string, string>;
}

export interface RecordingStompOptions {
  /** heart-beat proposed both ways, in ms (default 0: none) */
  heartbeatMs?: number;
  /** sent as `Authorization: Bearer <token>` on the WebSocket upgrade request */
  upgradeToken?: string;
  /** more headers of the CONNECT frame (e.g. the mock's x-mock-fault) */
  connectHeaders?: Record<string, string>;
  /** the longest wait for CONNECTED (default: until the server answers or closes) */
  connectTimeoutMs?: number;
  /** every WebSocket message the server sends, as bytes (to read the frames yourself) */
  onData?: (data: Uint8Array) => void;
  /** the largest WebSocket message read (default: ws's 100 MiB); a larger one closes the connection */
  maxFrameBytes?: number;
  /** the most bytes the connection reads in all (default: no limit); past it the connection is closed */
  maxConnectionBytes?: number;
}

export interface RecordingStompClient {
  /** the stompjs client underneath */
  client: Client;
  /** true once CONNECTED arrived (and still after the connection closed) */
  connected: boolean;
  messages: ReceivedMessage[];
  errors: IFrame[];
  /** every frame the server sent but heart-beats, in arrival order: CONNECTED, MESSAGE, RECEIPT, ERROR */
  frames: ServerFrame[];
  closed: Promise<{ code: number }>;
  /** why the connection was closed for a size limit (maxFrameBytes, maxConnectionBytes); null when it was not */
  overLimit: string | null;
  /**
   * Subscribes and resolves with the subscription id once the server's RECEIPT arrived; rejects when
   * an ERROR frame or the close comes first, or after `timeoutMs` (default: no limit). `headers`
   * are sent on the SUBSCRIBE besides id, destination and receipt.
   */
  subscribe(destination: string, options?: { timeoutMs?: number; headers?: Record<string, string> }): Promise<string>;
  /**
   * Subscribes asking for history (`x-replay: all`, or `x-since: <epoch>:<offset>`, which stompjs
   * sends escaped) and resolves at the RECEIPT with the subscription id and the RECEIPT's
   * `x-recovered`; rejects like subscribe.
   */
  subscribeReplaying(
    destination: string,
    replay: { 'x-replay': 'all' } | { 'x-since': string },
    options?: { timeoutMs?: number; headers?: Record<string, string> },
  ): Promise<{ id: string; recovered: string | undefined }>;
  /** Sends a JSON body; resolves at its RECEIPT, rejects like subscribe. */
  send(destination: string, body: string, options?: { headers?: Record<string, string>; timeoutMs?: number }): Promise<void>;
  /** Resolves with the first message (arrived or arriving) matching `predicate`; rejects after `timeoutMs`. */
  waitFor(predicate: (m: ReceivedMessage) => boolean, timeoutMs?: number): Promise<ReceivedMessage>;
  /** Resolves with the first ERROR frame (arrived or arriving); rejects after `timeoutMs`. */
  waitForError(timeoutMs: number): Promise<IFrame>;
  disconnect(): Promise<void>;
}

function parseJson(text: string): Json | undefined {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

/** Connects (`token` in the CONNECT frame, if any); resolves after CONNECTED, the ERROR frame of a refusal, the close, or the connect timeout. */
export function connectRecordingStomp(url: string, token: string | null, options: RecordingStompOptions = {}): Promise<RecordingStompClient> {
  const messages: ReceivedMessage[] = [];
  const errors: IFrame[] = [];
  const frames: ServerFrame[] = [];
  const keep = (frame: IFrame) => frames.push({ command: frame.command, headers: { ...frame.headers } });
  const listeners = new Set<() => void>();
  const notify = () => [...listeners].forEach((listener) => listener());
  let receiptCounter = 0;
  let subscriptionCounter = 0;
  let closeCode: number | null = null;
  let resolveClosed!: (value: { code: number }) => void;
  const closed = new Promise<{ code: number }>((resolve) => (resolveClosed = resolve));
  const client = createStompClient(url, {
    token,
    heartbeatMs: options.heartbeatMs ?? 0,
    upgradeToken: options.upgradeToken,
    connectHeaders: options.connectHeaders,
    onData: options.onData,
    maxFrameBytes: options.maxFrameBytes,
    maxConnectionBytes: options.maxConnectionBytes,
    onOverLimit: (reason) => (api.overLimit = reason),
  });

  /** Resolves with what `find` finds, once it finds something; rejects when it throws, or after `timeoutMs`. */
  const until = <T>(find: () => T | undefined, timeoutMs: number | undefined, timedOut: () => string): Promise<T> =>
    new Promise((resolve, reject) => {
      const check = () => {
        try {
          const found = find();
          if (found === undefined) return;
          stop();
          resolve(found);
        } catch (error) {
          stop();
          reject(error instanceof Error ? error : new Error('the condition threw', { cause: error }));
        }
      };
      const timer = timeoutMs === undefined ? undefined : setTimeout(() => (stop(), reject(new Error(timedOut()))), timeoutMs);
      const stop = () => (clearTimeout(timer), listeners.delete(check));
      listeners.add(check);
      check();
    });

  /** Issues a frame with a receipt header (unless the connection already ended) and waits for its RECEIPT. */
  const withReceipt = async (issue: (receipt: string) => void, what: string, timeoutMs: number | undefined): Promise<Record<string, string>> => {
    const receipt = `r-${++receiptCounter}`;
    let received: Record<string, string> | null = null;
    const ended = () => errors.length > 0 || closeCode !== null;
    client.watchForReceipt(receipt, (frame) => (keep(frame), (received = { ...frame.headers }), notify()));
    if (!ended()) issue(receipt);
    return until(
      () => {
        if (received) return received;
        if (ended())
          throw new Error(
            `${closeCode === null ? 'refused' : 'closed'} before the RECEIPT for ${what}: ${errors.map((e) => e.headers['error-code']).join(',')}`,
          );
        return undefined;
      },
      timeoutMs,
      () => `no RECEIPT for ${what} within ${timeoutMs} ms`,
    );
  };

  const record = (fallbackDestination: string) => (message: IMessage) => {
    keep(message);
    messages.push({
      destination: message.headers.destination ?? fallbackDestination,
      headers: { ...message.headers },
      body: parseJson(message.body),
      raw: message.body,
    });
    notify();
  };

  const api: RecordingStompClient = {
    client,
    connected: false,
    messages,
    errors,
    frames,
    closed,
    overLimit: null,
    async subscribe(destination, { timeoutMs, headers } = {}) {
      const id = `sub-${++subscriptionCounter}`;
      await withReceipt((receipt) => client.subscribe(destination, record(destination), { ...headers, id, receipt }), `SUBSCRIBE ${destination}`, timeoutMs);
      return id;
    },
    async subscribeReplaying(destination, replay, { timeoutMs, headers } = {}) {
      const id = `sub-${++subscriptionCounter}`;
      const receipt = await withReceipt(
        (r) => client.subscribe(destination, record(destination), { ...headers, ...replay, id, receipt: r }),
        `SUBSCRIBE ${destination}`,
        timeoutMs,
      );
      return { id, recovered: receipt['x-recovered'] };
    },
    async send(destination, body, { headers = {}, timeoutMs } = {}) {
      await withReceipt(
        (receipt) => client.publish({ destination, body, headers: { ...headers, receipt, 'content-type': 'application/json' } }),
        `SEND ${destination}`,
        timeoutMs,
      );
    },
    waitFor(predicate, timeoutMs = 10_000) {
      const summary = () =>
        JSON.stringify(messages.map((m) => [m.destination, jsonAt(m.body, 'type') ?? jsonAt(m.body, 'messageStreamType') ?? jsonAt(m.body, 'code')]));
      return until(
        () => messages.find(predicate),
        timeoutMs,
        () => `no matching message within ${timeoutMs} ms; got ${messages.length}: ${summary()}`,
      );
    },
    waitForError(timeoutMs) {
      return until(
        () => errors[0],
        timeoutMs,
        () => `no ERROR frame within ${timeoutMs} ms`,
      );
    },
    async disconnect() {
      await client.deactivate();
    },
  };

  return new Promise((resolve) => {
    const timer = options.connectTimeoutMs === undefined ? undefined : setTimeout(() => resolve(api), options.connectTimeoutMs);
    const settle = () => (clearTimeout(timer), resolve(api));
    client.onConnect = (frame) => (keep(frame), (api.connected = true), notify(), settle());
    client.onStompError = (frame) => (keep(frame), errors.push(frame), notify(), settle());
    // Frames no subscription or receipt wait claims are frames the server sent all the same.
    client.onUnhandledMessage = keep;
    client.onUnhandledReceipt = keep;
    client.onUnhandledFrame = keep;
    client.onWebSocketClose = (event: { code?: number }) => {
      closeCode = event.code ?? 0;
      resolveClosed({ code: closeCode });
      notify();
      settle();
    };
    client.activate();
  });
}
