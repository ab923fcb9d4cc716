// The WebSocket endpoint /ws-stomp on @hono/node-server's built-in upgrade, with a `ws` server that
// picks a STOMP subprotocol (without handleProtocols, `ws` would echo whatever the client offers
// first). Each connection gets a StompSession; a logged-out or revoked auth session ends its
// connections at once (WS002).
import { upgradeWebSocket } from '@hono/node-server';
import type { Env, Hono } from 'hono';
import { WebSocketServer, type WebSocket } from 'ws';
import type { RevocationReason, SessionRevocations } from '../auth/sessionRevocations.js';
import { errorCodes } from '../../generated/errorCodes.js';
import type { Logger } from '../logger.js';
import { createStompConnections, type StompConnections } from './stompConnections.js';
import { encodeTextFrame } from './stompFrame.js';
import { createStompSession, type StompSession, type StompSessionDeps } from './stompSession.js';

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
  /** pass to serve({ websocket: { server } }) */
  readonly server: WebSocketServer;
  readonly connections: () => number;
  /** the authenticated connections, by member and auth session */
  readonly live: StompConnections;
  /** closes every connection (graceful shutdown) */
  closeAll(): void;
}

export function registerStompEndpoint<E extends Env>(
  app: Hono<E>,
  deps: Omit<StompSessionDeps, 'connections'> & { revocations: SessionRevocations },
  log: Logger,
): StompEndpoint {
  const live = createStompConnections(deps.settings.maxConnectionsPerUser);
  const sessionDeps: StompSessionDeps = { ...deps, connections: live };
  // The periodic check in each session stays as the safety net (e.g. a revocation on another instance).
  const stopListening = deps.revocations.subscribe(({ sessionId, reason }) => {
    const ended = live.endSession(sessionId, 'WS002', REVOKED_MESSAGE[reason]);
    if (ended > 0) log.info({ connections: ended, reason }, 'closed the STOMP connections of an ended session');
  });
  const server = new WebSocketServer({
    noServer: true,
    maxPayload: deps.settings.maxFrameBytes * 4,
    handleProtocols: (offered) => SUBPROTOCOLS.find((p) => offered.has(p)) ?? false,
  });
  const open = new Map<WebSocket, StompSession>();

  app.get(
    '/ws-stomp',
    upgradeWebSocket(
      (c) => {
        // Tools that apply asyncapi.yaml's http bearer scheme send the token on the upgrade request.
        const upgrade = { authorization: c.req.header('authorization') };
        let session: StompSession | null = null;
        return {
          onOpen(_event, ws) {
            const raw = ws.raw as WebSocket;
            session = createStompSession(
              {
                send: (text) => sendUnlessSlow(raw, text, deps.settings.maxPendingBytes, log),
                close: (code, reason) => raw.close(code, reason),
              },
              sessionDeps,
              upgrade,
            );
            open.set(raw, session);
            deps.metrics?.stompConnections.inc();
            raw.once('close', () => {
              open.delete(raw);
              deps.metrics?.stompConnections.dec();
              session?.closed();
            });
          },
          onMessage(event: { data: unknown }) {
            session?.receive(event.data as string | ArrayBuffer);
          },
          onError(event) {
            log.warn({ err: (event as Event & { error?: unknown }).error }, 'websocket error');
          },
        };
      },
      { onError: (error) => log.error({ err: error }, 'websocket handler failed') },
    ),
  );

  return {
    server,
    connections: () => open.size,
    live,
    closeAll() {
      stopListening();
      for (const [raw, session] of open) {
        session.closed();
        raw.close(1001, 'server shutting down');
      }
    },
  };
}
