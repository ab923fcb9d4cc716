// The WebSocket endpoint /ws-stomp on @hono/node-server's built-in upgrade, with a `ws` server that
// picks a STOMP subprotocol (without handleProtocols, `ws` would echo whatever the client offers
// first). Each connection gets a StompSession.
import { upgradeWebSocket } from '@hono/node-server';
import type { Hono } from 'hono';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Logger } from '../logger.js';
import { createStompSession, type StompSession, type StompSessionDeps } from './stompSession.js';

const SUBPROTOCOLS = ['v12.stomp', 'v11.stomp', 'v10.stomp'];
const SLOW_CONSUMER_BYTES = 8 * 1024 * 1024;

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
 * bound, so past `limitBytes` it is disconnected instead (it can reconnect and re-read the saved
 * state over HTTP). Returns whether the frame was sent.
 */
export function sendUnlessSlow(socket: OutgoingSocket, text: string, limitBytes: number, log: Logger): boolean {
  if (socket.readyState !== socket.OPEN) return false;
  if (socket.bufferedAmount > limitBytes) {
    log.warn({ bufferedAmount: socket.bufferedAmount }, 'closing a slow STOMP consumer');
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
  /** closes every connection (graceful shutdown) */
  closeAll(): void;
}

export function registerStompEndpoint(app: Hono<any>, deps: StompSessionDeps, log: Logger): StompEndpoint {
  const server = new WebSocketServer({
    noServer: true,
    maxPayload: deps.settings.maxFrameBytes * 4,
    handleProtocols: (offered) => SUBPROTOCOLS.find((p) => offered.has(p)) ?? false,
  });
  const open = new Map<WebSocket, StompSession>();

  app.get(
    '/ws-stomp',
    upgradeWebSocket(() => {
      let session: StompSession | null = null;
      return {
        onOpen(_event, ws) {
          const raw = ws.raw as WebSocket;
          session = createStompSession(
            {
              send: (text) => sendUnlessSlow(raw, text, SLOW_CONSUMER_BYTES, log),
              close: (code, reason) => raw.close(code, reason),
            },
            deps,
          );
          open.set(raw, session);
          raw.once('close', () => {
            open.delete(raw);
            session?.closed();
          });
        },
        onMessage(event) {
          session?.receive(event.data as string | ArrayBuffer);
        },
        onError(event) {
          log.warn({ err: (event as Event & { error?: unknown }).error }, 'websocket error');
        },
      };
    }, { onError: (error) => log.error({ err: error }, 'websocket handler failed') }),
  );

  return {
    server,
    connections: () => open.size,
    closeAll() {
      for (const [raw, session] of open) {
        session.closed();
        raw.close(1001, 'server shutting down');
      }
    },
  };
}
