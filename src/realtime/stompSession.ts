// One STOMP connection: the CONNECT handshake (auth, version, heart-beats), subscriptions with
// ownership checks, SEND to the chat, receipts, and ERROR-then-close for everything the contract
// forbids (CONTRACT.md §5, asyncapi.yaml). The transport is the WebSocket; the codec is
// stompFrame/stompParser.
import { channelAddress, channels, matchChannel } from '../../generated/asyncapi.js';
import type { AuthService, Principal } from '../auth/authService.js';
import type { Config } from '../config.js';
import { storageUnavailable } from '../db/storageFailure.js';
import { AppError } from '../http/appError.js';
import type { Logger } from '../logger.js';
import type { Broker } from './broker.js';
import { encodeTextFrame, frameBodyText, type StompCommand, type StompFrame } from './stompFrame.js';
import { createStompParser, StompFrameError } from './stompParser.js';

export interface StompTransport {
  send(text: string): void;
  close(code: number, reason: string): void;
}

export type SubscribableChannel = 'chatStream' | 'scheduleUpdates' | 'errors';

export interface StompSessionDeps {
  auth: AuthService;
  broker: Broker;
  log: Logger;
  clock: () => number;
  settings: Config['stomp'];
  /** true when the member owns the room or plan the destination names */
  owns(memberId: number, channel: SubscribableChannel, id: number): boolean;
  /**
   * A SEND to /pub/chat/{chatRoomId}/message from the room's owner. Returns an error code for the
   * errors channel when the message is refused, null when it was accepted.
   */
  onChatMessage(principal: Principal, chatRoomId: number, body: string): 'accepted' | { code: 'CHAT102' | 'COMMON001' | 'COMMON002'; message: string };
  /** sends an ErrorResponse on the member's errors channel of a room */
  publishError(memberId: number, chatRoomId: number, code: string, message: string, path: string): void;
}

export interface StompSession {
  receive(data: string | ArrayBuffer | Uint8Array): void;
  /** the transport closed (by either side) */
  closed(): void;
  readonly principal: Principal | null;
}

const SUPPORTED_VERSIONS = ['1.2', '1.1', '1.0'];
/** `/pub/chat/` from the asyncapi.yaml address `/pub/chat/{chatRoomId}/message` */
const chatRoomPrefix = channels.chatMessages.address.slice(0, channels.chatMessages.address.indexOf('{'));
let sessionCounter = 0;

export function createStompSession(transport: StompTransport, deps: StompSessionDeps): StompSession {
  const sessionId = (++sessionCounter).toString(36);
  const parser = createStompParser({ maxFrameBytes: deps.settings.maxFrameBytes, escapeHeaders: true });
  const subscriptions = new Map<string, { destination: string; end: () => void }>();
  const timers: NodeJS.Timeout[] = [];
  let principal: Principal | null = null;
  let version = '1.2';
  let open = true;
  let lastReceivedAt = deps.clock();
  let messageCounter = 0;
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
  }

  /** ERROR frame with `error-code`, then close: every protocol violation ends the connection. */
  function fail(code: string, message: string, frame?: StompFrame): void {
    if (!open) return;
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
    const authorization = frame.headers.Authorization ?? frame.headers.authorization;
    const token = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
    if (!token) return fail('WS001', 'CONNECT needs the header Authorization: Bearer <accessToken>.', frame);
    try {
      principal = await deps.auth.authenticateToken(token);
    } catch (error) {
      if (storageUnavailable(error)) throw error;
      return fail('WS001', error instanceof AppError ? error.message : 'Authentication failed.', frame);
    }
    if (!open) return;
    const [clientSends, clientWants] = (frame.headers['heart-beat'] ?? '0,0').split(',').map((n) => Number.parseInt(n, 10) || 0);
    const serverMs = deps.settings.heartbeatMs;
    const outgoing = serverMs > 0 && clientWants! > 0 ? Math.max(serverMs, clientWants!) : 0;
    const incoming = serverMs > 0 && clientSends! > 0 ? Math.max(serverMs, clientSends!) : 0;
    write('CONNECTED', { version, 'heart-beat': `${serverMs},${serverMs}`, 'user-name': String(principal.memberId), server: 'trip-itinerary/1.0' });
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
    const match = matchChannel(destination);
    const channel = match?.name;
    if (!match || (channel !== 'chatStream' && channel !== 'scheduleUpdates' && channel !== 'errors')) {
      return fail('WS004', `Cannot subscribe to ${destination}.`, frame);
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
    const roomId = Number(match?.name === 'chatMessages' ? match.parameters.chatRoomId : roomText);
    const ownsRoom = Number.isSafeInteger(roomId) && roomId > 0 && deps.owns(who.memberId, 'chatStream', roomId);
    if (!ownsRoom) return fail('WS005', `Sending to ${destination || '(no destination)'} is not allowed.`, frame);
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
