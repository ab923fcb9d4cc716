// The STOMP connection under a RealtimeConnection, on @stomp/stompjs: the socket (options.webSocket
// or globalThis.WebSocket) to the URL asked for before each attempt, CONNECT with the access token
// asked for before each attempt, stompjs' reconnects, and what an ERROR frame means for the next
// attempt: after WS002 (token expired, session ended) the next CONNECT carries a reissued token.
import { Client, Versions, type IFrame, type IMessage } from '@stomp/stompjs';
import type { StompErrorFrameCode } from '../generated/realtime/errorCodes.js';
import { deferred } from './inbox.js';
import { RealtimeError, type RealtimeOptions, type WebSocketConstructor } from './realtimeTypes.js';

/** The ERROR codes after which the next CONNECT needs a new token: it expired or its session ended, or CONNECT's was refused. */
const SESSION_ENDED: StompErrorFrameCode = 'WS002';
const TOKEN_REFUSED: StompErrorFrameCode = 'WS001';

export interface ErrorFrame {
  code: string | null;
  message: string;
  receiptId: string | null;
}

export interface LinkHooks {
  connected(connectionId: number, url: string): void;
  error(frame: ErrorFrame): void;
  disconnected(errorCode: string | null, willReconnect: boolean): void;
  failed(error: Error): void;
}

export interface StompLink {
  /** grows with every CONNECTED */
  readonly connectionId: number;
  readonly connected: boolean;
  subscribe(destination: string, headers: Record<string, string>, onMessage: (message: IMessage) => void): void;
  unsubscribe(id: string, headers: Record<string, string>): void;
  publish(destination: string, body: string, headers: Record<string, string>): void;
  watchReceipt(receiptId: string, onReceipt: (frame: IFrame) => void): void;
  /** resolves at once when connected, else at the next CONNECTED; rejects once the link gave up or closed */
  whenConnected(): Promise<void>;
  close(): Promise<void>;
}

function webSocketClass(options: RealtimeOptions): WebSocketConstructor {
  const found = options.webSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (!found) throw new Error("There is no WebSocket here: pass options.webSocket (in Node 20, the ws package's WebSocket).");
  return found;
}

/** Opens the link; `opened` resolves at the first CONNECTED and rejects when the first attempt fails. */
export function openStompLink(options: RealtimeOptions, hooks: LinkHooks): { link: StompLink; opened: Promise<void> } {
  const WebSocketClass = webSocketClass(options);
  const opened = deferred<void>();
  const state = { connectionId: 0, connected: false, url: '', reissueNext: false, reissued: false, lastError: null as string | null, ended: false };
  let waiting = deferred<void>();

  function giveUp(error: Error): void {
    if (state.ended) return;
    state.ended = true;
    opened.reject(error);
    waiting.reject(error);
    hooks.failed(error);
    void client.deactivate();
  }

  /** Before each attempt (stompjs awaits it): the URL and a token, reissued when the last connection was ended for its token. */
  async function prepare(): Promise<void> {
    try {
      state.reissued = state.reissueNext;
      state.reissueNext = false;
      const token = state.reissued ? await options.reissue() : await options.accessToken();
      client.connectHeaders = { Authorization: `Bearer ${token}` };
      state.url = typeof options.url === 'function' ? options.url() : options.url;
    } catch (error) {
      // Without a token no attempt can succeed; deactivating here makes stompjs skip this one.
      giveUp(error instanceof Error ? error : new Error(String(error)));
    }
  }

  function onError(frame: IFrame): void {
    const code = frame.headers['error-code'] ?? null;
    state.lastError = code;
    if (code === SESSION_ENDED) state.reissueNext = true;
    if (code === TOKEN_REFUSED) {
      // A token refused right after a reissue will not do better the next time.
      if (state.reissued) giveUp(new RealtimeError(code, frame.headers.message ?? 'The access token was refused.'));
      else state.reissueNext = true;
    }
    hooks.error({ code, message: frame.headers.message ?? frame.body, receiptId: frame.headers['receipt-id'] ?? null });
  }

  function onClose(): void {
    const wasConnected = state.connected;
    state.connected = false;
    if (wasConnected) waiting = deferred<void>();
    // The first attempt failed for another reason than its token: say so rather than retry without end.
    if (state.connectionId === 0 && !state.reissueNext && !state.ended)
      giveUp(new RealtimeError(state.lastError ?? 'closed', `Could not connect to ${state.url}${state.lastError ? ` (ERROR ${state.lastError})` : ''}.`));
    if (wasConnected || state.lastError) hooks.disconnected(state.lastError, !state.ended);
    state.lastError = null;
  }

  const heartbeatMs = options.heartbeatMs ?? 10_000;
  const client = new Client({
    webSocketFactory: () => new WebSocketClass(state.url, Versions.default.protocolVersions()),
    reconnectDelay: options.reconnectDelayMs ?? 1000,
    heartbeatIncoming: heartbeatMs,
    heartbeatOutgoing: heartbeatMs,
    // A peer that stopped answering is dropped at once, not after a closing handshake it will never finish.
    discardWebsocketOnCommFailure: true,
    beforeConnect: prepare,
    onConnect: () => {
      state.connected = true;
      state.connectionId++;
      state.lastError = null;
      state.reissued = false;
      opened.resolve();
      hooks.connected(state.connectionId, state.url);
      waiting.resolve();
    },
    onStompError: onError,
    onWebSocketClose: onClose,
  });
  client.activate();

  const link: StompLink = {
    get connectionId() {
      return state.connectionId;
    },
    get connected() {
      return state.connected;
    },
    subscribe: (destination, headers, onMessage) => void client.subscribe(destination, onMessage, headers),
    unsubscribe: (id, headers) => client.unsubscribe(id, headers),
    publish: (destination, body, headers) => client.publish({ destination, body, headers }),
    watchReceipt: (receiptId, onReceipt) => client.watchForReceipt(receiptId, onReceipt),
    whenConnected: () => (state.connected ? Promise.resolve() : waiting.promise),
    async close() {
      if (!state.ended) {
        state.ended = true;
        const error = new RealtimeError('closed', 'The connection was closed.');
        opened.reject(error);
        waiting.reject(error);
      }
      await client.deactivate();
    },
  };
  return { link, opened: opened.promise };
}
