// One STOMP connection: the CONNECT handshake (auth, version, heart-beats), subscriptions with
// ownership checks, SEND to the chat, receipts, and ERROR-then-close for everything the contract
// forbids (asyncapi.yaml, server `stomp`). The transport is the WebSocket; the codec is
// stompFrame/stompParser; what CONNECT negotiates is stompHandshake, what a destination names is
// stompDestinations, the timers after CONNECTED are stompConnectionWatch.
import { channelAddress } from '../../generated/asyncapi.js';
import type { AuthService } from '../auth/authService.js';
import type { Config } from '../config.js';
import type { ErrorsChannelCode, StompErrorFrameCode } from '../../generated/errorCodes.js';
import { storageUnavailable } from '../db/storageFailure.js';
import { AppError } from '../http/appError.js';
import { errorTextLimits, truncateText } from '../http/errorBodyLimits.js';
import type { Principal } from '../http/principal.js';
import type { Logger } from '../logger.js';
import type { Broker } from './broker.js';
import type { Metrics, StompChannelKind } from '../metrics/metricsRegistry.js';
import { subscribeToLog } from './logSubscription.js';
import type { PlanLog } from './planLog.js';
import { replayRequest } from './replayRequest.js';
import { watchConnection } from './stompConnectionWatch.js';
import type { LiveConnection, StompConnections } from './stompConnections.js';
import { sendTarget, subscriptionTarget, type SubscribableChannel } from './stompDestinations.js';
import { encodeTextFrame, frameBodyText, type StompCommand, type StompFrame } from './stompFrame.js';
import { bearerToken, negotiateHeartBeats, negotiateVersion, SERVER_HEADER, SUPPORTED_VERSIONS } from './stompHandshake.js';
import { createStompParser, StompFrameError } from './stompParser.js';

export type { SubscribableChannel };

export interface StompTransport {
  /** false: not sent (the client stopped reading, or the socket is closing) */
  send(text: string): boolean | void;
  close(code: number, reason: string): void;
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
  const sessionId = (++sessionCounter).toString(36);
  const parser = createStompParser({ maxFrameBytes: deps.settings.maxFrameBytes, escapeHeaders: true });
  const subscriptions = new Map<string, { destination: string; end: () => void }>();
  let stopWatch = (): void => {};
  let principal: Principal | null = null;
  let version = '1.2';
  let open = true;
  let lastReceivedAt = deps.clock();
  let messageCounter = 0;
  let registered: LiveConnection | null = null;
  const log = deps.log.child({ stompSession: sessionId });
  const metrics = deps.metrics;

  /** false when the frame was not sent */
  function write(command: StompCommand, headers: Record<string, string>, body?: string): boolean {
    if (!open) return false;
    return transport.send(encodeTextFrame({ command, headers, body }, { escapeHeaders: version !== '1.0' })) !== false;
  }

  function shutdown(): void {
    if (!open) return;
    open = false;
    stopWatch();
    for (const { end } of subscriptions.values()) end();
    metrics?.stompSubscriptions.dec(subscriptions.size);
    subscriptions.clear();
    if (registered) deps.connections.remove(registered);
  }

  /** ERROR frame with `error-code`, then close: every protocol violation ends the connection. */
  function fail(code: StompErrorFrameCode, detail: string, frame?: StompFrame): void {
    if (!open) return;
    // The text may name what the client sent (a destination of up to 8 KiB): cut like HTTP error messages.
    const message = truncateText(detail, errorTextLimits.message);
    log.info({ code, message, memberId: principal?.memberId }, 'stomp error');
    const headers: Record<string, string> = { 'error-code': code, message, 'content-type': 'text/plain' };
    if (frame?.headers.receipt) headers['receipt-id'] = frame.headers.receipt;
    write('ERROR', headers, message);
    shutdown();
    transport.close(code === 'WS102' ? 1002 : code === 'WS503' ? 1013 : 1008, code);
  }

  function receipt(frame: StompFrame, extra: Record<string, string> = {}): void {
    if (frame.headers.receipt !== undefined) write('RECEIPT', { 'receipt-id': frame.headers.receipt, ...extra });
  }

  async function connect(frame: StompFrame): Promise<void> {
    const chosen = negotiateVersion(frame);
    if (!chosen) return fail('WS102', `Supported STOMP versions are ${SUPPORTED_VERSIONS.join(', ')}.`, frame);
    version = chosen;
    parser.setEscapeHeaders(version !== '1.0');
    const token = bearerToken(frame, upgrade.authorization);
    if (!token) return fail('WS001', 'CONNECT needs the header Authorization: Bearer <accessToken>.', frame);
    let who: Principal;
    try {
      who = await deps.auth.authenticateToken(token);
    } catch (error) {
      if (storageUnavailable(error)) throw error;
      return fail('WS001', error instanceof AppError ? error.message : 'Authentication failed.', frame);
    }
    if (!open) return;
    principal = who;
    const connection: LiveConnection = { memberId: who.memberId, authSessionId: who.sessionId, end: (code, message) => fail(code, message) };
    if (!deps.connections.admit(connection)) {
      return fail('WS107', `A member may have at most ${deps.settings.maxConnectionsPerUser} STOMP connections open; close one first.`, frame);
    }
    registered = connection;
    // A logout between the token check and admit() announced itself to nobody; check once more.
    if (!(await deps.auth.isSessionLive(who.sessionId))) return fail('WS002', 'The session was logged out.', frame);
    const heartBeats = negotiateHeartBeats(frame, deps.settings.heartbeatMs);
    write('CONNECTED', { version, 'heart-beat': heartBeats.header, 'user-name': String(who.memberId), server: SERVER_HEADER });
    stopWatch = watchConnection({
      heartBeats,
      clock: deps.clock,
      lastReceivedAt: () => lastReceivedAt,
      sendHeartBeat: () => open && transport.send('\n'),
      expiresAt: who.expiresAt,
      sessionCheckMs: deps.settings.sessionCheckMs,
      isSessionLive: () => deps.auth.isSessionLive(who.sessionId),
      end: (code, message) => fail(code, message),
      log,
    });
    log.info({ memberId: who.memberId, version }, 'stomp connected');
  }

  async function subscribe(frame: StompFrame, who: Principal): Promise<void> {
    const { id, destination } = frame.headers;
    if (!id || !destination) return fail('WS102', 'SUBSCRIBE needs the headers id and destination.', frame);
    if (subscriptions.has(id)) return fail('WS102', `Subscription id ${id} is already in use.`, frame);
    const { maxSubscriptionsPerConnection } = deps.settings;
    if (subscriptions.size >= maxSubscriptionsPerConnection) {
      return fail('WS105', `A connection may have at most ${maxSubscriptionsPerConnection} subscriptions.`, frame);
    }
    const target = subscriptionTarget(destination);
    if (!target) return fail('WS004', `Cannot subscribe to ${destination}.`, frame);
    for (const subscription of subscriptions.values()) {
      if (subscription.destination === destination) return fail('WS106', `This connection already subscribes to ${destination}.`, frame);
    }
    const replay = replayRequest(frame.headers);
    if (replay && 'problem' in replay) return fail('WS102', replay.problem, frame);
    if (replay) metrics?.replayRequests.inc({ mode: 'all' in replay ? 'all' : 'since' });
    const stream = await deps.logOf(who.memberId, target.channel, target.id);
    if (stream === null) return fail('WS004', `Subscription to ${destination} is not allowed.`, frame);
    // The connection may have closed while ownership was read; a subscription now would outlive it.
    if (!open) return;
    const channel = CHANNEL_KIND[target.channel];
    const subscription = await subscribeToLog(deps.planLog, deps.broker, { memberId: who.memberId, destination, stream }, replay, (body, position) => {
      if (!open) return;
      const sent = write(
        'MESSAGE',
        {
          destination,
          'content-type': 'application/json',
          subscription: id,
          'message-id': `${sessionId}-${++messageCounter}`,
          'x-epoch': position.epoch,
          'x-offset': String(position.offset),
        },
        body,
      );
      if (metrics) (sent ? metrics.stompDelivered : metrics.stompDropped).inc({ channel });
    });
    if (!open) return subscription.end();
    subscriptions.set(id, { destination, end: subscription.end });
    metrics?.stompSubscriptions.inc();
    if (subscription.recovered === false) metrics?.replayUnrecovered.inc();
    receipt(frame, subscription.recovered === null ? {} : { 'x-recovered': String(subscription.recovered) });
  }

  async function send(frame: StompFrame, who: Principal): Promise<void> {
    const destination = frame.headers.destination ?? '';
    const target = sendTarget(destination);
    if (!target || (await deps.logOf(who.memberId, 'chatStream', target.chatRoomId)) === null)
      return fail('WS005', `Sending to ${destination || '(no destination)'} is not allowed.`, frame);
    const roomId = target.chatRoomId;
    if (!target.acceptsMessages) {
      await deps.publishError(
        who.memberId,
        roomId,
        'WS005',
        `Sending to ${destination} is not allowed; use ${channelAddress('chatMessages', { chatRoomId: roomId })}.`,
        destination,
      );
      return receipt(frame);
    }
    const outcome = await deps.onChatMessage(who, roomId, frameBodyText(frame));
    if (outcome !== 'accepted') await deps.publishError(who.memberId, roomId, outcome.code, outcome.message, destination);
    receipt(frame);
  }

  async function handle(frame: StompFrame): Promise<void> {
    if (frame.command === 'CONNECT' || frame.command === 'STOMP') {
      if (principal) return fail('WS102', 'Already connected.', frame);
      return connect(frame);
    }
    const who = principal;
    if (!who) return fail('WS001', `${frame.command} before CONNECT.`, frame);
    switch (frame.command) {
      case 'SUBSCRIBE':
        return subscribe(frame, who);
      case 'UNSUBSCRIBE': {
        const subscription = subscriptions.get(frame.headers.id ?? '');
        if (!subscription) return fail('WS102', `No subscription with id ${frame.headers.id}.`, frame);
        subscription.end();
        subscriptions.delete(frame.headers.id!);
        metrics?.stompSubscriptions.dec();
        return receipt(frame);
      }
      case 'SEND':
        return send(frame, who);
      case 'DISCONNECT':
        receipt(frame);
        shutdown();
        transport.close(1000, 'DISCONNECT');
        return;
      default:
        return fail('WS102', `${frame.command} is not supported by this server.`, frame);
    }
  }

  // Frames are handled one after another even though CONNECT awaits authentication.
  let queue: Promise<void> = Promise.resolve();

  return {
    receive(data) {
      if (!open) return;
      lastReceivedAt = deps.clock();
      let frames: StompFrame[];
      try {
        frames = parser.push(typeof data === 'string' ? data : data instanceof Uint8Array ? data : new Uint8Array(data)).frames;
      } catch (error) {
        if (error instanceof StompFrameError) return fail('WS102', error.message);
        throw error;
      }
      for (const frame of frames) {
        queue = queue
          .then(() => (open ? handle(frame) : undefined))
          .catch((error: unknown) => {
            if (storageUnavailable(error)) {
              // Nothing of the frame was stored, so no RECEIPT: the ERROR names the frame's receipt instead.
              log.warn({ err: error, command: frame.command }, 'stomp frame refused: storage cannot take writes');
              return fail('WS503', 'The storage cannot take writes right now; nothing was saved. Reconnect and send it again later.', frame);
            }
            log.error({ err: error }, 'stomp frame handling failed');
            fail('WS102', 'The frame could not be handled.');
          });
      }
    },
    closed() {
      shutdown();
    },
    get principal() {
      return principal;
    },
  };
}
