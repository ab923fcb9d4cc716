// A STOMP client for the conformance run: @stomp/stompjs (a real, third-party client) over `ws`.
// Records every MESSAGE with its destination, and every ERROR frame.
import { Client, type IFrame, type IStompSocket } from '@stomp/stompjs';
import WebSocket from 'ws';

export interface ProbeMessage {
  destination: string;
  headers: Record<string, string>;
  /** parsed JSON, or undefined when the body is not JSON */
  body: any;
  raw: string;
}

export interface StompProbe {
  messages: ProbeMessage[];
  errors: IFrame[];
  connected: boolean;
  subscribe(destination: string, timeoutMs: number): Promise<boolean>;
  send(destination: string, body: string, timeoutMs: number): Promise<boolean>;
  waitFor(predicate: (m: ProbeMessage) => boolean, timeoutMs: number): Promise<ProbeMessage | null>;
  /** resolves true when an ERROR frame arrived (or already had) within the time */
  waitForError(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** The STOMP endpoint of a server: its base URL with ws:// (or wss://) and /ws-stomp. */
export function wsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '').replace(/^http/, 'ws')}/ws-stomp`;
}

export const STOMP_SUBPROTOCOLS = ['v12.stomp', 'v11.stomp', 'v10.stomp'];

export async function openStompProbe(wsUrl: string, token: string, timeoutMs: number): Promise<StompProbe> {
  const messages: ProbeMessage[] = [];
  const errors: IFrame[] = [];
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((l) => l());
  let receipt = 0;
  let subscription = 0;
  const client = new Client({
    webSocketFactory: () => new WebSocket(wsUrl, STOMP_SUBPROTOCOLS) as unknown as IStompSocket,
    connectHeaders: { Authorization: `Bearer ${token}` },
    reconnectDelay: 0,
    heartbeatIncoming: 0,
    heartbeatOutgoing: 0,
  });
  const until = (condition: () => boolean, ms: number) =>
    new Promise<boolean>((resolve) => {
      if (condition()) return resolve(true);
      const check = () => {
        if (!condition()) return;
        cleanup();
        resolve(true);
      };
      const timer = setTimeout(() => (cleanup(), resolve(false)), ms);
      const cleanup = () => (clearTimeout(timer), listeners.delete(check));
      listeners.add(check);
    });
  const probe: StompProbe = {
    messages,
    errors,
    connected: false,
    async subscribe(destination, ms) {
      const id = `r${++receipt}`;
      let got = false;
      client.watchForReceipt(id, () => ((got = true), notify()));
      client.subscribe(
        destination,
        (message) => {
          let body: unknown;
          try {
            body = JSON.parse(message.body);
          } catch {
            body = undefined;
          }
          messages.push({ destination: message.headers.destination ?? destination, headers: { ...message.headers }, body, raw: message.body });
          notify();
        },
        { id: `s${++subscription}`, receipt: id },
      );
      return until(() => got || errors.length > 0, ms).then(() => got);
    },
    async send(destination, body, ms) {
      const id = `r${++receipt}`;
      let got = false;
      client.watchForReceipt(id, () => ((got = true), notify()));
      client.publish({ destination, body, headers: { receipt: id, 'content-type': 'application/json' } });
      return until(() => got || errors.length > 0, ms).then(() => got);
    },
    async waitFor(predicate, ms) {
      return (await until(() => messages.some(predicate), ms)) ? messages.find(predicate)! : null;
    },
    waitForError: (ms) => until(() => errors.length > 0, ms),
    close: () => client.deactivate(),
  };
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    client.onConnect = () => ((probe.connected = true), clearTimeout(timer), resolve());
    client.onStompError = (frame) => (errors.push(frame), notify(), clearTimeout(timer), resolve());
    client.onWebSocketClose = () => (notify(), clearTimeout(timer), resolve());
    client.activate();
  });
  return probe;
}

/** Sends raw bytes on a fresh STOMP WebSocket and resolves with what came back before close. */
export function sendRawFrames(wsUrl: string, frames: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = new WebSocket(wsUrl, STOMP_SUBPROTOCOLS);
    let received = '';
    const done = () => (clearTimeout(timer), socket.terminate(), resolve(received));
    const timer = setTimeout(done, timeoutMs);
    socket.on('open', () => frames.forEach((f) => socket.send(f)));
    socket.on('message', (data) => (received += String(data)));
    socket.on('close', done);
    socket.on('error', done);
  });
}
