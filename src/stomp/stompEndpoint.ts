// The WebSocket endpoint (asyncapi.yaml servers.stomp.pathname: /ws-stomp): a `ws` server on node's HTTP server (the upgrade itself:
// stompUpgrade.ts) that picks a STOMP subprotocol (without handleProtocols, `ws` would echo whatever
// the client offers first). Each connection gets a StompSession; a logged-out or revoked auth
// session ends its connections at once (WS002).
import type { Server } from 'node:http';
import type { Env, Hono } from 'hono';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { RevocationReason, SessionRevocations } from '../auth/sessionRevocations.js';
import { errorCodes } from '../../generated/errorCodes.js';
import { stompServerPath } from '../../generated/asyncapi.js';
import type { Logger } from '../kernel/logger.js';
import { createStompConnections, type StompConnections } from './stompConnections.js';
import { encodeTextFrame } from './stompFrame.js';
import { createConnectionWatches } from './stompConnectionWatch.js';
import { createStompSession, type StompSession, type StompSessionDeps, type StompTransport } from './stompSession.js';
import { handleUpgrades, stompUpgradeRoute, type AppFetch, type UpgradeHold } from './stompUpgrade.js';

const SUBPROTOCOLS = ['v12.stomp', 'v11.stomp', 'v10.stomp'];
/** The last frame a slow consumer gets (asyncapi.yaml, Limits: WS108); its headers need no escaping. */
const SLOW_CONSUMER_ERROR = encodeTextFrame(
  { command: 'ERROR', headers: { 'error-code': 'WS108', message: errorCodes.WS108.message, 'content-type': 'text/plain' }, body: errorCodes.WS108.message },
  { escapeHeaders: false },
);
const REVOKED_MESSAGE: Record<RevocationReason, string> = {
  logout: 'The session was logged out.',
  'refresh-token-reuse': 'The session was revoked because one of its refresh tokens was used twice.',
};

/** The part of a `ws` WebSocket that sending needs. */
export interface OutgoingSocket {
  readonly readyState: number;
  readonly OPEN: number;
  readonly bufferedAmount: number;
  send(text: string): void;
  close(code: number, reason: string): void;
}

/**
 * Sends a frame, unless the client stopped reading: the server would then buffer its frames without
 * bound, so past `limitBytes` (STOMP_MAX_PENDING_BYTES) it gets ERROR WS108 and is disconnected
 * instead (it can reconnect and re-read the saved state over HTTP). Returns whether the frame was sent.
 */
export function sendUnlessSlow(socket: OutgoingSocket, text: string, limitBytes: number, log: Logger): boolean {
  if (socket.readyState !== socket.OPEN) return false;
  if (socket.bufferedAmount > limitBytes) {
    log.warn({ bufferedAmount: socket.bufferedAmount }, 'closing a slow STOMP consumer');
    socket.send(SLOW_CONSUMER_ERROR);
    socket.close(1013, 'slow consumer');
    return false;
  }
  socket.send(text);
  return true;
}

export interface StompEndpoint {
  /**
   * Takes `server`'s WebSocket upgrades: each passes through `fetch` (the app's, or a front's that
   * forwards to it) like any request, and one that reaches /ws-stomp becomes a STOMP connection.
   */
  attach(server: Server, fetch: AppFetch): void;
  readonly connections: () => number;
  /** the authenticated connections, by member and auth session */
  readonly live: StompConnections;
  /** closes every connection (graceful shutdown) */
  closeAll(): void;
}

/** `holdUpgrade`: counts each WebSocket against its client before the upgrade (the connection caps behind proxies). */
export function registerStompEndpoint<E extends Env>(
  app: Hono<E>,
  deps: Omit<StompSessionDeps, 'connections' | 'watches'> & { revocations: SessionRevocations },
  log: Logger,
  holdUpgrade?: UpgradeHold,
): StompEndpoint {
  const live = createStompConnections(deps.settings.maxConnectionsPerUser);
  const watches = createConnectionWatches({ clock: deps.clock, sessionCheckMs: deps.settings.sessionCheckMs, log });
  const sessionDeps: StompSessionDeps = { ...deps, connections: live, watches };
  // The periodic check in each session stays as the safety net (e.g. a revocation on another instance).
  const stopListening = deps.revocations.subscribe(({ sessionId, reason }) => {
    const ended = live.endSession(sessionId, 'WS002', REVOKED_MESSAGE[reason]);
    if (ended > 0) log.info({ connections: ended, reason }, 'closed the STOMP connections of an ended session');
  });
  const wss = new WebSocketServer({
    noServer: true,
    // `open` below tracks the connections; ws's own set would add a listener to each.
    clientTracking: false,
    maxPayload: deps.settings.maxFrameBytes * 4,
    handleProtocols: (offered) => SUBPROTOCOLS.find((p) => offered.has(p)) ?? false,
  });
  const open = new Map<WebSocket, StompSession>();
  const { maxPendingBytes } = deps.settings;

  // One set of listeners for every socket (`this` is the socket), rather than closures per connection.
  function onMessage(this: WebSocket, data: RawData, isBinary: boolean): void {
    // Text frames were checked as UTF-8 by ws; the parser takes either form.
    open.get(this)?.receive(isBinary ? toBytes(data) : toBytes(data).toString('utf8'));
  }
  function onClose(this: WebSocket): void {
    const session = open.get(this);
    if (!session) return;
    open.delete(this);
    deps.metrics?.stompConnections.dec();
    session.closed();
  }
  function onError(this: WebSocket, error: Error): void {
    log.warn({ err: error }, 'websocket error');
  }

  function accept(ws: WebSocket, authorization: string | undefined): void {
    const session = createStompSession(
      new SocketTransport(ws, maxPendingBytes, log),
      sessionDeps,
      // Tools that apply asyncapi.yaml's http bearer scheme send the token on the upgrade request.
      authorization === undefined ? undefined : { authorization },
    );
    open.set(ws, session);
    deps.metrics?.stompConnections.inc();
    ws.on('message', onMessage);
    ws.on('close', onClose);
    ws.on('error', onError);
  }

  app.get(stompServerPath, stompUpgradeRoute(holdUpgrade));

  return {
    attach(server, fetch) {
      handleUpgrades(server, wss, fetch, accept, log);
      server.once('close', () => wss.close());
    },
    connections: () => open.size,
    live,
    closeAll() {
      stopListening();
      for (const [ws, session] of open) {
        session.closed();
        ws.close(1001, 'server shutting down');
      }
    },
  };
}

/** A session's way out to its socket (a class: one per connection, its methods shared). */
class SocketTransport implements StompTransport {
  constructor(
    private readonly ws: WebSocket,
    private readonly maxPendingBytes: number,
    private readonly log: Logger,
  ) {}
  send(text: string): boolean {
    return sendUnlessSlow(this.ws, text, this.maxPendingBytes, this.log);
  }
  close(code: number, reason: string): void {
    this.ws.close(code, reason);
  }
  terminate(): void {
    this.ws.terminate();
  }
}

/** ws hands a Buffer to text and binary messages alike (binaryType nodebuffer, the default). */
const toBytes = (data: RawData): Buffer => (Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data));
