// One STOMP connection: the CONNECT handshake (auth, version, heart-beats), subscriptions with
// ownership checks, SEND to the chat, receipts, and ERROR-then-close for everything the contract
// forbids (asyncapi.yaml, server `stomp`). The transport is the WebSocket; the codec is
// stompFrame/stompParser; what CONNECT negotiates is stompHandshake, what a destination names is
// stompDestinations, the timers after CONNECTED are stompConnectionWatch (shared by all connections).
//
// A class rather than closures: an idle server holds one session per connection, and each closure
// costs its function object per session (several hundred bytes apiece under tsx, whose keepNames
// gives every function its own property dictionary); methods live once on the prototype.
import { channelAddress } from '../../generated/asyncapi.js';
import type { AuthService } from '../auth/authService.js';
import type { Config } from '../config/config.js';
import type { ErrorsChannelCode, StompErrorFrameCode } from '../../generated/errorCodes.js';
import { storageUnavailable } from '../db/storageFailure.js';
import { AppError } from '../kernel/appError.js';
import { errorTextLimits, truncateText } from '../kernel/errorBodyLimits.js';
import type { Principal } from '../kernel/principal.js';
import type { Logger } from '../kernel/logger.js';
import type { Broker } from '../delivery/broker.js';
import type { Metrics, StompChannelKind } from '../metrics/metricsRegistry.js';
import { subscribeToLog } from '../delivery/logSubscription.js';
import type { LogPosition, PlanLog } from '../delivery/planLog.js';
import { replayRequest } from '../delivery/replayRequest.js';
import type { ConnectionWatches, WatchedConnection } from './stompConnectionWatch.js';
import type { ConnectionFaults, StompFaults } from './stompFaults.js';
import type { LiveConnection, StompConnections } from './stompConnections.js';
import { sendTarget, subscriptionTarget, type SubscribableChannel } from './stompDestinations.js';
import { encodeTextFrame, frameBodyText, type StompCommand, type StompFrame } from './stompFrame.js';
import { bearerToken, negotiateHeartBeats, negotiateVersion, SERVER_HEADER, SUPPORTED_VERSIONS, type HeartBeats } from './stompHandshake.js';
import { createStompParser, StompFrameError, type StompParser } from './stompParser.js';

export type { SubscribableChannel };

export interface StompTransport {
  /** false: not sent (the client stopped reading, or the socket is closing) */
  send(text: string): boolean | void;
  close(code: number, reason: string): void;
  /** ends the socket at once, without a close handshake, as a lost network would (injected faults) */
  terminate?(): void;
}

export interface StompSessionDeps {
  auth: Pick<AuthService, 'authenticateToken' | 'isSessionLive'>;
  broker: Broker;
  /** the logs of the subscribable channels, for replaying subscriptions (x-replay, x-since) */
  planLog: PlanLog;
  log: Logger;
  clock: () => number;
  settings: Config['stomp'];
  /** the authenticated connections of this instance (per-member limit, ending a session's connections) */
  connections: StompConnections;
  /** the heart-beat, expiry and session-check timers of this instance's connections */
  watches: ConnectionWatches;
  /** the log (planLog.ts) of a destination naming a room or plan the member owns; null when not theirs */
  logOf(memberId: number, channel: SubscribableChannel, id: number): Promise<string | null>;
  /**
   * A SEND to /pub/chat/{chatRoomId}/message from the room's owner. Returns an error code for the
   * errors channel when the message is refused, null when it was accepted.
   */
  onChatMessage(principal: Principal, chatRoomId: number, body: string): Promise<'accepted' | { code: ErrorsChannelCode; message: string }>;
  /** sends an ErrorResponse on the member's errors channel of a room */
  publishError(memberId: number, chatRoomId: number, code: ErrorsChannelCode, message: string, path: string): Promise<void>;
  /** null or absent: metrics off */
  metrics?: Metrics | null;
  /** faults clients may ask for (stompFaults.ts): the mock's; absent in the service */
  faults?: StompFaults;
}

/** The channel kind a subscription is counted under (trip_stomp_messages_*_total). */
const CHANNEL_KIND: Record<SubscribableChannel, StompChannelKind> = { scheduleUpdates: 'schedule', errors: 'errors', chatStream: 'chat' };

export interface StompSession {
  receive(data: string | ArrayBuffer | Uint8Array): void;
  /** the transport closed (by either side) */
  closed(): void;
  readonly principal: Principal | null;
}

let sessionCounter = 0;

/** What the WebSocket upgrade request said that the session needs. */
export interface UpgradeRequest {
  /** its `Authorization` header: the token's fallback when CONNECT has none (asyncapi.yaml, bearerAuth) */
  authorization?: string;
}

export function createStompSession(transport: StompTransport, deps: StompSessionDeps, upgrade: UpgradeRequest = {}): StompSession {
  return new Session(transport, deps, upgrade.authorization);
}

interface Subscription {
  id: string;
  destination: string;
  end: () => void;
}

const NO_HEART_BEATS: HeartBeats = { header: '0,0', outgoingMs: 0, incomingMs: 0 };
const DONE: Promise<void> = Promise.resolve();

class Session implements StompSession, LiveConnection, WatchedConnection {
  private readonly id = (++sessionCounter).toString(36);
  /** made when bytes arrive, dropped again between frames (stompParser idle()) */
  private parser: StompParser | null = null;
  /** made at the first SUBSCRIBE; a list, not a Map: a connection has a few (at most STOMP_MAX_SUBSCRIPTIONS_PER_CONNECTION), and a Map's table costs more than they do */
  private subscriptions: Subscription[] | null = null;
  private who: Principal | null = null;
  private version = '1.2';
  private open = true;
  private watched = false;
  private registered = false;
  private messageCounter = 0;
  /** what this connection asked to suffer (only where deps.faults is given: the mock) */
  private faults: ConnectionFaults | null = null;
  /** until CONNECT arrives: a WebSocket that never sends it is closed (WS109) instead of held forever */
  private connectDeadline: NodeJS.Timeout | null;
  // Frames are handled one after another even though CONNECT awaits authentication.
  private queue: Promise<void> = DONE;
  lastReceivedAt: number;
  heartBeats: HeartBeats = NO_HEART_BEATS;
  expiresAt = 0;

  constructor(
    private readonly transport: StompTransport,
    private readonly deps: StompSessionDeps,
    private readonly upgradeAuthorization: string | undefined,
  ) {
    this.lastReceivedAt = deps.clock();
    this.connectDeadline = setTimeout(() => this.connectTimedOut(), deps.settings.connectTimeoutMs).unref();
  }

  private connectTimedOut(): void {
    this.connectDeadline = null;
    this.fail('WS109', `No CONNECT within ${this.deps.settings.connectTimeoutMs} ms of the WebSocket opening.`);
  }

  private clearConnectDeadline(): void {
    if (this.connectDeadline) clearTimeout(this.connectDeadline);
    this.connectDeadline = null;
  }

  get principal(): Principal | null {
    return this.who;
  }

  // LiveConnection (set once CONNECT authenticated; only then is the session registered)
  get memberId(): number {
    return this.who!.memberId;
  }
  get authSessionId(): string {
    return this.who!.sessionId;
  }

  /** Every line names the session; no child logger per connection (it would be kept for the connection's life). */
  private logged(fields: Record<string, unknown>): Record<string, unknown> {
    return { stompSession: this.id, ...fields };
  }

  receive(data: string | ArrayBuffer | Uint8Array): void {
    if (!this.open) return;
    this.lastReceivedAt = this.deps.clock();
    let frames: StompFrame[];
    try {
      const parser = (this.parser ??= createStompParser({ maxFrameBytes: this.deps.settings.maxFrameBytes, escapeHeaders: this.version !== '1.0' }));
      frames = parser.push(typeof data === 'string' ? data : data instanceof Uint8Array ? data : new Uint8Array(data)).frames;
      if (parser.idle()) this.parser = null;
    } catch (error) {
      if (error instanceof StompFrameError) return this.fail('WS102', error.message);
      throw error;
    }
    for (const frame of frames) {
      this.queue = this.queue
        .then(() => (this.open ? this.handle(frame) : undefined))
        .catch((error: unknown) => {
          if (storageUnavailable(error)) {
            // Nothing of the frame was stored, so no RECEIPT: the ERROR names the frame's receipt instead.
            this.deps.log.warn(this.logged({ err: error, command: frame.command }), 'stomp frame refused: storage cannot take writes');
            return this.fail('WS503', 'The storage cannot take writes right now; nothing was saved. Reconnect and send it again later.', frame);
          }
          this.deps.log.error(this.logged({ err: error }), 'stomp frame handling failed');
          this.fail('WS102', 'The frame could not be handled.');
        });
    }
  }

  /** the transport closed (by either side) */
  closed(): void {
    this.shutdown();
  }

  // WatchedConnection and LiveConnection
  sendHeartBeat(): void {
    if (this.open) this.transport.send('\n');
  }

  isSessionLive(): Promise<boolean> {
    return this.deps.auth.isSessionLive(this.who!.sessionId);
  }

  end(code: StompErrorFrameCode, message: string): void {
    this.fail(code, message);
  }

  /** false when the frame was not sent */
  private write(command: StompCommand, headers: Record<string, string>, body?: string): boolean {
    if (!this.open) return false;
    return this.transport.send(encodeTextFrame({ command, headers, body }, { escapeHeaders: this.version !== '1.0' })) !== false;
  }

  private shutdown(): void {
    if (!this.open) return;
    this.open = false;
    this.parser = null;
    this.clearConnectDeadline();
    if (this.watched) this.deps.watches.unwatch(this);
    if (this.subscriptions) {
      for (const { end } of this.subscriptions) end();
      this.deps.metrics?.stompSubscriptions.dec(this.subscriptions.length);
      this.subscriptions = null;
    }
    if (this.registered) this.deps.connections.remove(this);
  }

  /** ERROR frame with `error-code`, then close: every protocol violation ends the connection. */
  private fail(code: StompErrorFrameCode, detail: string, frame?: StompFrame): void {
    if (!this.open) return;
    // The text may name what the client sent (a destination of up to 8 KiB): cut like HTTP error messages.
    const message = truncateText(detail, errorTextLimits.message);
    this.deps.log.info(this.logged({ code, message, memberId: this.who?.memberId }), 'stomp error');
    const headers: Record<string, string> = { 'error-code': code, message, 'content-type': 'text/plain' };
    if (frame?.headers.receipt) headers['receipt-id'] = frame.headers.receipt;
    this.write('ERROR', headers, message);
    this.shutdown();
    this.transport.close(code === 'WS102' ? 1002 : code === 'WS503' ? 1013 : 1008, code);
  }

  private receipt(frame: StompFrame, extra: Record<string, string> = {}): void {
    if (frame.headers.receipt !== undefined) this.write('RECEIPT', { 'receipt-id': frame.headers.receipt, ...extra });
  }

  private async connect(frame: StompFrame): Promise<void> {
    const { deps } = this;
    const chosen = negotiateVersion(frame);
    if (!chosen) return this.fail('WS102', `Supported STOMP versions are ${SUPPORTED_VERSIONS.join(', ')}.`, frame);
    this.version = chosen;
    this.parser?.setEscapeHeaders(chosen !== '1.0');
    const token = bearerToken(frame, this.upgradeAuthorization);
    if (!token) return this.fail('WS001', 'CONNECT needs the header Authorization: Bearer <accessToken>.', frame);
    let who: Principal;
    try {
      who = await deps.auth.authenticateToken(token);
    } catch (error) {
      if (storageUnavailable(error)) throw error;
      return this.fail('WS001', error instanceof AppError ? error.message : 'Authentication failed.', frame);
    }
    if (!this.open) return;
    if (deps.faults) {
      const faults = deps.faults.connecting(frame);
      if ('problem' in faults) return this.fail('WS102', faults.problem, frame);
      this.faults = faults;
    }
    this.who = who;
    if (!deps.connections.admit(this)) {
      return this.fail('WS107', `A member may have at most ${deps.settings.maxConnectionsPerUser} STOMP connections open; close one first.`, frame);
    }
    this.registered = true;
    // A logout between the token check and admit() announced itself to nobody; check once more.
    if (!(await deps.auth.isSessionLive(who.sessionId))) return this.fail('WS002', 'The session was logged out.', frame);
    if (!this.open) return;
    this.heartBeats = negotiateHeartBeats(frame, deps.settings.heartbeatMs);
    this.expiresAt = who.expiresAt;
    this.write('CONNECTED', { version: chosen, 'heart-beat': this.heartBeats.header, 'user-name': String(who.memberId), server: SERVER_HEADER });
    deps.watches.watch(this);
    this.watched = true;
    this.deps.log.info(this.logged({ memberId: who.memberId, version: chosen }), 'stomp connected');
  }

  private async subscribe(frame: StompFrame, who: Principal): Promise<void> {
    const { deps } = this;
    const { id, destination } = frame.headers;
    if (!id || !destination) return this.fail('WS102', 'SUBSCRIBE needs the headers id and destination.', frame);
    const subscriptions = (this.subscriptions ??= []);
    if (subscriptions.some((s) => s.id === id)) return this.fail('WS102', `Subscription id ${id} is already in use.`, frame);
    const { maxSubscriptionsPerConnection } = deps.settings;
    if (subscriptions.length >= maxSubscriptionsPerConnection) {
      return this.fail('WS105', `A connection may have at most ${maxSubscriptionsPerConnection} subscriptions.`, frame);
    }
    const target = subscriptionTarget(destination);
    if (!target) return this.fail('WS004', `Cannot subscribe to ${destination}.`, frame);
    for (const subscription of subscriptions) {
      if (subscription.destination === destination) return this.fail('WS106', `This connection already subscribes to ${destination}.`, frame);
    }
    const replay = replayRequest(frame.headers);
    if (replay && 'problem' in replay) return this.fail('WS102', replay.problem, frame);
    let planLog = deps.planLog;
    if (this.faults) {
      const chosen = this.faults.subscribing(frame, planLog);
      if ('problem' in chosen) return this.fail('WS102', chosen.problem, frame);
      planLog = chosen;
    }
    const metrics = deps.metrics;
    if (replay) metrics?.replayRequests.inc({ mode: 'all' in replay ? 'all' : 'since' });
    const stream = await deps.logOf(who.memberId, target.channel, target.id);
    if (stream === null) return this.fail('WS004', `Subscription to ${destination} is not allowed.`, frame);
    // The connection may have closed while ownership was read; a subscription now would outlive it.
    if (!this.open) return;
    const channel = CHANNEL_KIND[target.channel];
    const subscription = await subscribeToLog(
      planLog,
      deps.broker,
      { memberId: who.memberId, destination, stream },
      replay,
      (body, position) => this.deliver(id, destination, channel, body, position),
      // Nothing later would show the client the loss: it must reconnect and reread (asyncapi.yaml).
      () => this.fail('WS110', `Messages of ${destination} may have been lost: subscribe again with x-since and read the saved state over HTTP.`),
    );
    if (!this.open || !this.subscriptions) return subscription.end();
    this.subscriptions.push({ id, destination, end: subscription.end });
    metrics?.stompSubscriptions.inc();
    if (subscription.recovered === false) metrics?.replayUnrecovered.inc();
    this.receipt(frame, subscription.recovered === null ? {} : { 'x-recovered': String(subscription.recovered) });
  }

  /** One MESSAGE of subscription `id`, with its place in the log. */
  private deliver(id: string, destination: string, channel: StompChannelKind, body: string, position: LogPosition): void {
    if (!this.open) return;
    const headers = {
      destination,
      'content-type': 'application/json',
      subscription: id,
      'message-id': `${this.id}-${++this.messageCounter}`,
      'x-epoch': position.epoch,
      'x-offset': String(position.offset),
    };
    const fault = this.faults?.delivering(id);
    const sent = this.write('MESSAGE', headers, body);
    this.deps.metrics?.[sent ? 'stompDelivered' : 'stompDropped'].inc({ channel });
    if (!fault) return;
    for (let copy = 1; copy < fault.copies; copy++) this.write('MESSAGE', headers, body);
    if (fault.dropAfter) this.drop();
  }

  /** Ends the connection as a lost network would: no ERROR frame, no close handshake (an injected fault). */
  private drop(): void {
    this.deps.log.info(this.logged({ memberId: this.who?.memberId }), 'stomp connection dropped: an injected fault');
    this.shutdown();
    if (this.transport.terminate) this.transport.terminate();
    else this.transport.close(1011, 'dropped');
  }

  private async send(frame: StompFrame, who: Principal): Promise<void> {
    const { deps } = this;
    const destination = frame.headers.destination ?? '';
    const target = sendTarget(destination);
    if (!target || (await deps.logOf(who.memberId, 'chatStream', target.chatRoomId)) === null)
      return this.fail('WS005', `Sending to ${destination || '(no destination)'} is not allowed.`, frame);
    const roomId = target.chatRoomId;
    if (!target.acceptsMessages) {
      await deps.publishError(
        who.memberId,
        roomId,
        'WS005',
        `Sending to ${destination} is not allowed; use ${channelAddress('chatMessages', { chatRoomId: roomId })}.`,
        destination,
      );
      return this.receipt(frame);
    }
    const outcome = await deps.onChatMessage(who, roomId, frameBodyText(frame));
    if (outcome !== 'accepted') await deps.publishError(who.memberId, roomId, outcome.code, outcome.message, destination);
    this.receipt(frame);
  }

  private async handle(frame: StompFrame): Promise<void> {
    if (frame.command === 'CONNECT' || frame.command === 'STOMP') {
      this.clearConnectDeadline();
      if (this.who) return this.fail('WS102', 'Already connected.', frame);
      return this.connect(frame);
    }
    const who = this.who;
    if (!who) return this.fail('WS001', `${frame.command} before CONNECT.`, frame);
    switch (frame.command) {
      case 'SUBSCRIBE':
        return this.subscribe(frame, who);
      case 'UNSUBSCRIBE': {
        const at = this.subscriptions?.findIndex((s) => s.id === frame.headers.id) ?? -1;
        if (at === -1) return this.fail('WS102', `No subscription with id ${frame.headers.id}.`, frame);
        const [subscription] = this.subscriptions!.splice(at, 1);
        subscription!.end();
        this.deps.metrics?.stompSubscriptions.dec();
        return this.receipt(frame);
      }
      case 'SEND':
        return this.send(frame, who);
      case 'DISCONNECT':
        this.receipt(frame);
        this.shutdown();
        this.transport.close(1000, 'DISCONNECT');
        return;
      default:
        return this.fail('WS102', `${frame.command} is not supported by this server.`, frame);
    }
  }
}
