// The public types of the real-time half: the options of a connection, what a subscription is given,
// and the events a connection tells. Payloads, channel names and parameters are the generated ones.
import type { ChannelParameters, ChannelPayloads, delivery } from '../generated/realtime/asyncapi.js';
import type { LogName, Position, ReceivableChannel, SendableChannel } from './channels.js';
import type { ContinuityReason } from './logFollow.js';

export type { LogName, Position, ReceivableChannel, SendableChannel, ContinuityReason, ChannelParameters, ChannelPayloads };

/** The part of a WebSocket the STOMP client uses. */
export interface WebSocketLike {
  readonly readyState: number;
  close(): void;
  send(data: string): void;
}

/** A WebSocket class: the browser's, or in Node 20 (which has none) the `ws` package's. */
export type WebSocketConstructor = new (url: string, protocols: string[]) => WebSocketLike;

/** What the parameters of an operation are: path and query values by name. */
export type OperationParameters = Record<string, string | number>;

export interface RealtimeOptions {
  /** the ws:// (wss://) URL of /ws-stomp; a function is asked again before every (re)connect, e.g. to pick another instance */
  url: string | (() => string);
  /** default globalThis.WebSocket */
  webSocket?: WebSocketConstructor;
  /** the access token CONNECT carries (`Authorization: Bearer <token>`); asked before every (re)connect */
  accessToken(): Promise<string>;
  /** a fresh access token after the server ended the old one (ERROR WS002, or WS001 at CONNECT) */
  reissue(): Promise<string>;
  /** calls an HTTP operation by its operationId: the state of a log is read again with these after a loss */
  callOperation(operationId: string, parameters: OperationParameters): Promise<unknown>;
  /** between reconnect attempts; default 1000 */
  reconnectDelayMs?: number;
  /** STOMP heart-beats both ways; 0 turns them off; default 10000 */
  heartbeatMs?: number;
  /** the default of SubscribeOptions.refetch; default false */
  refetch?: boolean;
  /** more headers for every CONNECT, e.g. the mock's `x-mock-fault` (docs/mock.md of the service) */
  connectHeaders?: Readonly<Record<string, string>>;
}

/** The operations of `delivery.logs.<log>.rebuildWith`. */
export type RebuildOperation = (typeof delivery.logs)[LogName]['rebuildWith'][number];

/** What one rebuildWith operation answered, or why it did not. */
export type RefetchResult = { operationId: RebuildOperation; ok: true; value: unknown } | { operationId: RebuildOperation; ok: false; error: unknown };

/** Messages of a log may be missing: read its state again with `rebuildWith`, then rely on the messages that follow. */
export type ContinuityLostEvent<C extends ReceivableChannel = ReceivableChannel> = { [K in C]: ChannelContinuityLost<K> }[C];

/** A ContinuityLostEvent as the subscription of one channel gets it. */
export interface ChannelContinuityLost<C extends ReceivableChannel> {
  channel: C;
  parameters: ChannelParameters<C>;
  log: LogName;
  reason: ContinuityReason;
  /** the operations that read the log's state again (`delivery.logs.<log>.rebuildWith`) */
  rebuildWith: readonly RebuildOperation[];
  /** the number of this loss on the connection: the copies each subscription of the log gets share it */
  loss: number;
  /** the last position the subscription had before the loss */
  position: Position | null;
  /** with refetch: what each rebuildWith operation answered, called with the parameters of the subscriptions of the scope */
  refetched?: readonly RefetchResult[];
}

export interface SubscriptionHandler<C extends ReceivableChannel> {
  /** each message once, in order; `position` is null only when the server sent none */
  onMessage(payload: ChannelPayloads[C], position: Position | null): void;
  onContinuityLost?(event: ContinuityLostEvent<C>): void;
}

export interface SubscribeOptions {
  /** 'all': first the history the log retains of its current epoch (`x-replay: all`) */
  replay?: 'all';
  /**
   * Subscriptions that follow one plan pass the same scope (generate() does): the channels of one
   * log then share their position, so a gap in its offsets and a new epoch before a run's end are
   * seen across them, and a subscription resumes from where its log was. Default: the subscription
   * alone.
   */
  scope?: string;
  /** call the rebuildWith operations on a loss and put their answers on the event; default RealtimeOptions.refetch */
  refetch?: boolean;
}

export interface RealtimeSubscription<C extends ReceivableChannel> {
  readonly channel: C;
  readonly parameters: ChannelParameters<C>;
  readonly destination: string;
  /** the position of the last message given to the handler */
  position(): Position | null;
  /** UNSUBSCRIBE; resolves on its RECEIPT (at once when the connection is down) */
  unsubscribe(): Promise<void>;
}

export interface RealtimeEvents {
  /** CONNECTED: the first comes before connectRealtime() resolves, so listeners hear the reconnects (`reconnected: true`) */
  connected: { url: string; reconnected: boolean };
  /** the connection ended; `errorCode` of the ERROR frame before it, if one came */
  disconnected: { errorCode: string | null; willReconnect: boolean };
  continuityLost: ContinuityLostEvent;
  /** the server refused a subscription (ERROR on its SUBSCRIBE): it is given up */
  subscriptionRefused: { channel: ReceivableChannel; parameters: OperationParameters; errorCode: string };
  /** a handler threw */
  handlerError: { error: unknown; channel: ReceivableChannel | null };
  /** the connection gave up: no token could be had, or the server refused it */
  failed: { error: Error };
}

export interface RealtimeConnection {
  /** resolves once the SUBSCRIBE's RECEIPT arrived: the subscription is live */
  subscribe<C extends ReceivableChannel>(
    channel: C,
    parameters: ChannelParameters<C>,
    handler: SubscriptionHandler<C>,
    options?: SubscribeOptions,
  ): Promise<RealtimeSubscription<C>>;
  /** resolves once the SEND's RECEIPT arrived (for a chat message: it is stored) */
  send<C extends SendableChannel>(channel: C, parameters: ChannelParameters<C>, payload: ChannelPayloads[C]): Promise<void>;
  /**
   * A run of the plan followed by `scope` is about to begin (`delivery.runs.startedBy`): the next
   * epoch of each of its logs (`runs.newEpochOf`) must then begin at the first offset, and a new
   * epoch before that run's end is a loss. generate() calls it before it starts the run.
   */
  expectRun(scope: string): void;
  on<E extends keyof RealtimeEvents>(event: E, listener: (event: RealtimeEvents[E]) => void): () => void;
  readonly connected: boolean;
  /** DISCONNECT; pending subscribes and sends are rejected */
  close(): Promise<void>;
}

/** Why an operation of the connection failed: the ERROR frame's code, or 'closed'. */
export class RealtimeError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'RealtimeError';
  }
}
