// One STOMP connection: the CONNECT handshake (auth, version, heart-beats), subscriptions with
// ownership checks, SEND to the chat, receipts, and ERROR-then-close for everything the contract
// forbids (CONTRACT.md §5, asyncapi.yaml). The transport is the WebSocket; the codec is
// stompFrame/stompParser.
import { asyncapiVersion, channelAddress, channels, matchChannel } from '../../generated/asyncapi.js';
import type { AuthService, Principal } from '../auth/authService.js';
import type { Config } from '../config.js';
import type { ErrorsChannelCode, StompErrorFrameCode } from '../../generated/errorCodes.js';
import { storageUnavailable } from '../db/storageFailure.js';
import { AppError } from '../http/appError.js';
import { errorTextLimits, truncateText } from '../http/errorBodyLimits.js';
import type { Logger } from '../logger.js';
import type { Broker } from './broker.js';
import type { LiveConnection, StompConnections } from './stompConnections.js';
import { encodeTextFrame, frameBodyText, type StompCommand, type StompFrame } from './stompFrame.js';
import { createStompParser, StompFrameError } from './stompParser.js';

export interface StompTransport {
  send(text: string): void;
  close(code: number, reason: string): void;
}

export type SubscribableChannel = 'chatStream' | 'scheduleUpdates' | 'errors';

export interface StompSessionDeps {
  auth: Pick<AuthService, 'authenticateToken' | 'isSessionLive'>;
  broker: Broker;
  log: Logger;
  clock: () => number;
  settings: Config['stomp'];
  /** the authenticated connections of this instance (per-member limit, ending a session's connections) */
  connections: StompConnections;
  /** true when the member owns the room or plan the destination names */
  owns(memberId: number, channel: SubscribableChannel, id: number): boolean;
  /**
   * A SEND to /pub/chat/{chatRoomId}/message from the room's owner. Returns an error code for the
   * errors channel when the message is refused, null when it was accepted.
   */
  onChatMessage(principal: Principal, chatRoomId: number, body: string): 'accepted' | { code: ErrorsChannelCode; message: string };
  /** sends an ErrorResponse on the member's errors channel of a room */
  publishError(memberId: number, chatRoomId: number, code: ErrorsChannelCode, message: string, path: string): void;
}

export interface StompSession {
  receive(data: string | ArrayBuffer | Uint8Array): void;
  /** the transport closed (by either side) */
  closed(): void;
  readonly principal: Principal | null;
}

const SUPPORTED_VERSIONS = ['1.2', '1.1', '1.0'];
/** CONNECTED's `server` header: the major.minor of the asyncapi.yaml implemented (StompConnectedHeaders). */
const SERVER_HEADER = `trip-itinerary/${asyncapiVersion.split('.').slice(0, 2).join('.')}`;
/** `/pub/chat/` from the asyncapi.yaml address `/pub/chat/{chatRoomId}/message` */
const chatRoomPrefix = channels.chatMessages.address.slice(0, channels.chatMessages.address.indexOf('{'));
/** the `x-pattern` of the parameter ChatRoomId in asyncapi.yaml: canonical decimal integers only */
const chatRoomIdPattern = new RegExp(channels.chatMessages.parameterPatterns.chatRoomId);

/** An id of a destination: canonical decimal text (the parameter's pattern) within the range of `Id`. */
function idOf(text: string | undefined, pattern: RegExp): number | null {
  if (text === undefined || !pattern.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : null;
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
  const timers: NodeJS.Timeout[] = [];
  let principal: Principal | null = null;
  let version = '1.2';
  let open = true;
  let lastReceivedAt = deps.clock();
  let messageCounter = 0;
  let registered: LiveConnection | null = null;
  const log = deps.log.child({ stompSession: sessionId });

  function write(command: StompCommand, headers: Record<string, string>, body?: string): void {
    if (!open) return;
    transport.send(encodeTextFrame({ command, headers, body }, { escapeHeaders: version !== '1.0' }));
  }

  function shutdown(): void {
    if (!open) return;
    open = false;
    for (const timer of timers) clearInterval(timer);
    for (const { end } of subscriptions.values()) end();
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

  function receipt(frame: StompFrame): void {
    if (frame.headers.receipt !== undefined) write('RECEIPT', { 'receipt-id': frame.headers.receipt });
  }

  async function connect(frame: StompFrame): Promise<void> {
    const offered = (frame.headers['accept-version'] ?? '1.0').split(',').map((v) => v.trim());
    const chosen = SUPPORTED_VERSIONS.find((v) => offered.includes(v));
    if (!chosen) return fail('WS102', `Supported STOMP versions are ${SUPPORTED_VERSIONS.join(', ')}.`, frame);
    version = chosen;
    parser.setEscapeHeaders(version !== '1.0');
    // The CONNECT header wins over the upgrade request's; a bad token from either is WS001 here.
    const authorization = frame.headers.Authorization ?? frame.headers.authorization ?? upgrade.authorization;
    const token = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
    if (!token) return fail('WS001', 'CONNECT needs the header Authorization: Bearer <accessToken>.', frame);
    try {
      principal = await deps.auth.authenticateToken(token);
    } catch (error) {
      if (storageUnavailable(error)) throw error;
      return fail('WS001', error instanceof AppError ? error.message : 'Authentication failed.', frame);
    }
    if (!open) return;
    const connection: LiveConnection = { memberId: principal.memberId, authSessionId: principal.sessionId, end: (code, message) => fail(code, message) };
    if (!deps.connections.admit(connection)) {
      return fail('WS107', `A member may have at most ${deps.settings.maxConnectionsPerUser} STOMP connections open; close one first.`, frame);
    }
    registered = connection;
    // A logout between the token check and admit() announced itself to nobody; check once more.
    if (!deps.auth.isSessionLive(principal.sessionId)) return fail('WS002', 'The session was logged out.', frame);
    const [clientSends, clientWants] = (frame.headers['heart-beat'] ?? '0,0').split(',').map((n) => Number.parseInt(n, 10) || 0);
    const serverMs = deps.settings.heartbeatMs;
    const outgoing = serverMs > 0 && clientWants! > 0 ? Math.max(serverMs, clientWants!) : 0;
    const incoming = serverMs > 0 && clientSends! > 0 ? Math.max(serverMs, clientSends!) : 0;
    write('CONNECTED', { version, 'heart-beat': `${serverMs},${serverMs}`, 'user-name': String(principal.memberId), server: SERVER_HEADER });
    if (outgoing > 0) timers.push(setInterval(() => open && transport.send('\n'), outgoing));
    if (incoming > 0) {
      // Generous grace for the peer, as the spec suggests: twice the agreed interval.
      timers.push(setInterval(() => deps.clock() - lastReceivedAt > incoming * 2 && fail('WS102', 'No heart-beat from the client.'), incoming));
    }
    const { sessionId: authSession, expiresAt } = principal;
    // setTimeout overflows past 2^31-1 ms (about 24.8 days); longer tokens are caught by the periodic check.
    timers.push(setTimeout(() => fail('WS002', 'The access token expired.'), Math.min(2 ** 31 - 1, Math.max(0, expiresAt - deps.clock()))));
    timers.push(
      setInterval(() => {
        if (deps.clock() >= expiresAt) return fail('WS002', 'The access token expired.');
        try {
          if (!deps.auth.isSessionLive(authSession)) fail('WS002', 'The session was logged out.');
        } catch (error) {
          // The storage cannot be read now; the next check decides. A throw here would end the process.
          log.warn({ err: error }, 'stomp session check failed');
        }
      }, deps.settings.sessionCheckMs),
    );
    log.info({ memberId: principal.memberId, version }, 'stomp connected');
  }

  function subscribe(frame: StompFrame, who: Principal): void {
    const { id, destination } = frame.headers;
    if (!id || !destination) return fail('WS102', 'SUBSCRIBE needs the headers id and destination.', frame);
    if (subscriptions.has(id)) return fail('WS102', `Subscription id ${id} is already in use.`, frame);
    const { maxSubscriptionsPerConnection } = deps.settings;
    if (subscriptions.size >= maxSubscriptionsPerConnection) {
      return fail('WS105', `A connection may have at most ${maxSubscriptionsPerConnection} subscriptions.`, frame);
    }
    // matchChannel only matches canonical ids (the parameters' x-pattern), so `03` or `+3` land here.
    const match = matchChannel(destination);
    const channel = match?.name;
    if (!match || (channel !== 'chatStream' && channel !== 'scheduleUpdates' && channel !== 'errors')) {
      return fail('WS004', `Cannot subscribe to ${destination}.`, frame);
    }
    for (const subscription of subscriptions.values()) {
      if (subscription.destination === destination) return fail('WS106', `This connection already subscribes to ${destination}.`, frame);
    }
    const resourceId = Number(Object.values(match.parameters)[0]);
    if (!Number.isSafeInteger(resourceId) || resourceId < 1 || !deps.owns(who.memberId, channel, resourceId)) {
      return fail('WS004', `Subscription to ${destination} is not allowed.`, frame);
    }
    const end = deps.broker.subscribe(who.memberId, destination, (body) => {
      write('MESSAGE', { destination, 'content-type': 'application/json', subscription: id, 'message-id': `${sessionId}-${++messageCounter}` }, body);
    });
    subscriptions.set(id, { destination, end });
    receipt(frame);
  }

  function send(frame: StompFrame, who: Principal): void {
    const destination = frame.headers.destination ?? '';
    const match = matchChannel(destination);
    // Another destination under a room's prefix still names the room, so its WS005 goes there.
    const roomText = destination.startsWith(chatRoomPrefix) ? destination.slice(chatRoomPrefix.length).split('/')[0] : undefined;
    const roomId = idOf(match?.name === 'chatMessages' ? match.parameters.chatRoomId : roomText, chatRoomIdPattern);
    if (roomId === null || !deps.owns(who.memberId, 'chatStream', roomId)) return fail('WS005', `Sending to ${destination || '(no destination)'} is not allowed.`, frame);
    if (match?.name !== 'chatMessages') {
      deps.publishError(who.memberId, roomId, 'WS005', `Sending to ${destination} is not allowed; use ${channelAddress('chatMessages', { chatRoomId: roomId })}.`, destination);
      return receipt(frame);
    }
    const outcome = deps.onChatMessage(who, roomId, frameBodyText(frame));
    if (outcome !== 'accepted') deps.publishError(who.memberId, roomId, outcome.code, outcome.message, destination);
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
        queue = queue.then(() => (open ? handle(frame) : undefined)).catch((error: unknown) => {
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
