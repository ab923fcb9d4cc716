// @stomp/stompjs over `ws` (Node 20 has no global WebSocket): the one place that opens a STOMP
// client connection, for the conformance runner, the test suite and the scripts.
import { Client } from '@stomp/stompjs';
import WebSocket from 'ws';

export const STOMP_SUBPROTOCOLS = ['v12.stomp', 'v11.stomp', 'v10.stomp'];

/** The STOMP endpoint of a server: its base URL with ws:// (or wss://) and /ws-stomp. */
export function wsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '').replace(/^http/, 'ws')}/ws-stomp`;
}

export interface StompClientOptions {
  /** sent as `Authorization: Bearer <token>` in the CONNECT frame; null sends none */
  token: string | null;
  /** heart-beat proposed both ways, in ms (0: none) */
  heartbeatMs: number;
  /** sent as `Authorization: Bearer <token>` on the WebSocket upgrade request (asyncapi.yaml, bearerAuth) */
  upgradeToken?: string | undefined;
  /** more headers of the CONNECT frame (e.g. the mock's x-mock-fault) */
  connectHeaders?: Record<string, string> | undefined;
  /** every WebSocket message the server sends, as bytes (to read the frames yourself) */
  onData?: ((data: Uint8Array) => void) | undefined;
  /** the largest WebSocket message read (default: ws's 100 MiB); a larger one closes the connection (1009) */
  maxFrameBytes?: number | undefined;
  /** the most bytes the connection reads in all (default: no limit); past it the connection is closed */
  maxConnectionBytes?: number | undefined;
  /** told, once, why the connection was closed for a limit above */
  onOverLimit?: ((reason: string) => void) | undefined;
}

const byteLength = (data: Buffer | ArrayBuffer | Buffer[]) => (Array.isArray(data) ? data.reduce((sum, b) => sum + b.byteLength, 0) : data.byteLength);

/**
 * A client that is not activated yet and connects once: no reconnecting, so a broken connection is
 * reported instead of silently missing the messages sent in between.
 */
export function createStompClient(url: string, options: StompClientOptions): Client {
  const { token, heartbeatMs, upgradeToken, connectHeaders, onData, maxFrameBytes, maxConnectionBytes, onOverLimit } = options;
  return new Client({
    webSocketFactory: () => {
      const headers = upgradeToken ? { Authorization: `Bearer ${upgradeToken}` } : {};
      const socket = new WebSocket(url, STOMP_SUBPROTOCOLS, { headers, ...(maxFrameBytes !== undefined && { maxPayload: maxFrameBytes }) });
      let overLimit = false;
      const close = (reason: string) => {
        if (overLimit) return;
        overLimit = true;
        onOverLimit?.(reason);
        socket.terminate();
      };
      // ws refuses a message over maxPayload before reading it, with this error, and closes 1009.
      socket.on('error', (error: Error & { code?: string }) => {
        if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') close(`a WebSocket message over ${maxFrameBytes} bytes`);
      });
      // A frame split over many messages, or an endless stream of them: stompjs would keep it all.
      let received = 0;
      socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
        received += byteLength(data);
        if (maxConnectionBytes !== undefined && received > maxConnectionBytes) close(`over ${maxConnectionBytes} bytes on one connection`);
      });
      // stompjs sets binaryType to arraybuffer, so `ws` hands listeners an ArrayBuffer (a Buffer before that).
      if (onData) socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => onData(Array.isArray(data) ? Buffer.concat(data) : new Uint8Array(data)));
      return socket;
    },
    connectHeaders: { ...connectHeaders, ...(token && { Authorization: `Bearer ${token}` }) },
    reconnectDelay: 0,
    heartbeatIncoming: heartbeatMs,
    heartbeatOutgoing: heartbeatMs,
  });
}
