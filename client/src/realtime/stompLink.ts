// The STOMP connection under a RealtimeConnection, on @stomp/stompjs: the socket (options.webSocket
// or globalThis.WebSocket) to the URL asked for before each attempt, CONNECT with the access token
// asked for before each attempt, stompjs' reconnects, and what an ERROR frame means for the next
// attempt: after WS002 (token expired, session ended) the next CONNECT carries a reissued token.
import { Client, Versions, type IFrame, type IMessage } from '@stomp/stompjs';
import type { StompErrorFrameCode } from '../generated/realtime/errorCodes.js';
import { deferred, type Deferred } from './inbox.js';
import { RealtimeError, type RealtimeOptions, type WebSocketConstructor } from './realtimeTypes.js';

/** After this ERROR the next CONNECT needs a new token: it expired, or its session ended. */
const SESSION_ENDED: StompErrorFrameCode = 'WS002';
/** CONNECT's token was refused: reissued once, then the link gives up. */
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

interface LinkState {
  readonly options: RealtimeOptions;
  readonly hooks: LinkHooks;
  readonly opened: Deferred<void>;
  /** resolved at the next CONNECTED */
  waiting: Deferred<void>;
  client: Client;
  connectionId: number;
  connected: boolean;
  url: string;
  /** the last connection ended for its token: the next attempt reissues it */
  reissueNext: boolean;
  /** this attempt's token was just reissued */
  reissued: boolean;
  /** the error-code of the ERROR frame that ended this connection */
  lastError: string | null;
  ended: boolean;
}

function webSocketClass(options: RealtimeOptions): WebSocketConstructor {
  const found = options.webSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (!found) throw new Error("There is no WebSocket here: pass options.webSocket (in Node 20, the ws package's WebSocket).");
  return found;
}

function end(state: LinkState, error: Error): void {
  state.ended = true;
  state.opened.reject(error);
  state.waiting.reject(error);
}

function giveUp(state: LinkState, error: Error): void {
  if (state.ended) return;
  end(state, error);
  state.hooks.failed(error);
  void state.client.deactivate();
}

/** Before each attempt (stompjs awaits it): the URL and a token, reissued when the last connection was ended for its token. */
async function prepare(state: LinkState): Promise<void> {
  const { options } = state;
  try {
    state.reissued = state.reissueNext;
    state.reissueNext = false;
    const token = state.reissued ? await options.reissue() : await options.accessToken();
    state.client.connectHeaders = { ...options.connectHeaders, Authorization: `Bearer ${token}` };
    state.url = typeof options.url === 'function' ? options.url() : options.url;
  } catch (error) {
    // Without a token no attempt can succeed; deactivating here makes stompjs skip this one.
    giveUp(state, error instanceof Error ? error : new Error(String(error)));
  }
}

function onConnected(state: LinkState): void {
  state.connected = true;
  state.connectionId++;
  state.lastError = null;
  state.reissued = false;
  state.opened.resolve();
  state.hooks.connected(state.connectionId, state.url);
  state.waiting.resolve();
}

function onError(state: LinkState, frame: IFrame): void {
  const code = frame.headers['error-code'] ?? null;
  state.lastError = code;
  if (code === SESSION_ENDED) state.reissueNext = true;
  if (code === TOKEN_REFUSED) {
    // A token refused right after a reissue will not do better the next time.
    if (state.reissued) giveUp(state, new RealtimeError(code, frame.headers.message ?? 'The access token was refused.'));
    else state.reissueNext = true;
  }
  state.hooks.error({ code, message: frame.headers.message ?? frame.body, receiptId: frame.headers['receipt-id'] ?? null });
}

function onClose(state: LinkState): void {
  const wasConnected = state.connected;
  state.connected = false;
  if (wasConnected) state.waiting = deferred<void>();
  // The first attempt failed for another reason than its token: say so rather than retry without end.
  if (state.connectionId === 0 && !state.reissueNext && !state.ended)
    giveUp(state, new RealtimeError(state.lastError ?? 'closed', `Could not connect to ${state.url}${state.lastError ? ` (ERROR ${state.lastError})` : ''}.`));
  if (wasConnected || state.lastError) state.hooks.disconnected(state.lastError, !state.ended);
  state.lastError = null;
}

function linkOver(state: LinkState): StompLink {
  const { client } = state;
  return {
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
    whenConnected: () => (state.connected ? Promise.resolve() : state.waiting.promise),
    async close() {
      if (!state.ended) end(state, new RealtimeError('closed', 'The connection was closed.'));
      await client.deactivate();
    },
  };
}

/** Opens the link; `opened` resolves at the first CONNECTED and rejects when the first attempt fails. */
export function openStompLink(options: RealtimeOptions, hooks: LinkHooks): { link: StompLink; opened: Promise<void> } {
  const WebSocketClass = webSocketClass(options);
  const heartbeatMs = options.heartbeatMs ?? 10_000;
  const state: LinkState = {
    options,
    hooks,
    opened: deferred<void>(),
    waiting: deferred<void>(),
    client: new Client(),
    connectionId: 0,
    connected: false,
    url: '',
    reissueNext: false,
    reissued: false,
    lastError: null,
    ended: false,
  };
  state.client.configure({
    webSocketFactory: () => new WebSocketClass(state.url, Versions.default.protocolVersions()),
    reconnectDelay: options.reconnectDelayMs ?? 1000,
    heartbeatIncoming: heartbeatMs,
    heartbeatOutgoing: heartbeatMs,
    // A peer that stopped answering is dropped at once, not after a closing handshake it will never finish.
    discardWebsocketOnCommFailure: true,
    beforeConnect: () => prepare(state),
    onConnect: () => onConnected(state),
    onStompError: (frame) => onError(state, frame),
    onWebSocketClose: () => onClose(state),
  });
  state.client.activate();
  return { link: linkOver(state), opened: state.opened.promise };
}
