// The WebSocket half of the mutating proxy: an upgrade at the STOMP endpoint is first made to the
// server (same path and query, subprotocols and credentials), and only once the server took it is
// the client's completed, with the subprotocol the server chose; then the relay reads the frames
// both ways. An upgrade the server refuses is answered as the server answered it; one elsewhere is 404.
import http from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { readWhole, type Upstream } from './httpForward.js';
import type { Mutation } from './mutation.js';
import { relayStomp } from './stompRelay.js';

export interface UpgradeSetup {
  upstream: Upstream;
  stompEndpoint: URL;
  mutation: Mutation;
  onApplied: () => void;
}

/** Writes a plain HTTP answer on a socket that asked for an upgrade, then ends it. */
function refuseUpgrade(socket: Duplex, status: number, headers: http.IncomingHttpHeaders, body: Buffer): void {
  const lines = Object.entries(headers).flatMap(([name, value]) =>
    ['transfer-encoding', 'connection', 'content-length'].includes(name) || value === undefined
      ? []
      : (Array.isArray(value) ? value : [value]).map((v) => `${name}: ${v}`),
  );
  const head = [`HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}`, ...lines, `content-length: ${body.length}`, 'connection: close'].join('\r\n');
  socket.end(Buffer.concat([Buffer.from(`${head}\r\n\r\n`), body]));
}

/** The proxy's upgrade handler, and a close that ends every relayed WebSocket. */
export function createUpgrades(setup: UpgradeSetup): { upgrade: (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void; close(): void } {
  const { upstream, stompEndpoint } = setup;
  const protocolOf = new WeakMap<http.IncomingMessage, string>();
  const sockets = new Set<WebSocket>();
  let connections = 0;
  const clients = new WebSocketServer({ noServer: true, maxPayload: upstream.maxBodyBytes, handleProtocols: (_offered, req) => protocolOf.get(req) ?? false });

  const upgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const target = new URL(req.url ?? '/', stompEndpoint);
    if (target.pathname !== stompEndpoint.pathname)
      return refuseUpgrade(socket, 404, {}, Buffer.from('the mutating proxy relays WebSockets at the STOMP endpoint only\n'));
    const offered = (req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    const credentials = Object.fromEntries(
      ['authorization', 'origin', 'cookie', 'user-agent'].flatMap((name) => (req.headers[name] ? [[name, req.headers[name]]] : [])),
    );
    const toServer = new WebSocket(target, offered, { headers: credentials, maxPayload: upstream.maxBodyBytes, handshakeTimeout: upstream.timeoutMs });
    let upgraded = false;
    toServer.on('unexpected-response', (_request, response) => {
      const refuse = (body: Buffer) => refuseUpgrade(socket, response.statusCode ?? 502, response.headers, body);
      readWhole(response, 64 * 1024).then(refuse, () => refuse(Buffer.alloc(0)));
    });
    // After the upgrade the relay handles the errors of either side.
    toServer.on('error', (error) => {
      if (!upgraded) refuseUpgrade(socket, 502, {}, Buffer.from(`${error.message}\n`));
    });
    toServer.on('open', () => {
      upgraded = true;
      // Held until the client's side is open too, so nothing the server sends first is lost.
      toServer.pause();
      protocolOf.set(req, toServer.protocol);
      clients.handleUpgrade(req, socket, head, (client) => {
        sockets.add(client).add(toServer);
        client.on('close', () => sockets.delete(client));
        toServer.on('close', () => sockets.delete(toServer));
        relayStomp({
          client,
          server: toServer,
          mutation: setup.mutation,
          number: ++connections,
          maxFrameBytes: upstream.maxBodyBytes,
          onApplied: setup.onApplied,
        });
        toServer.resume();
      });
    });
  };
  return {
    upgrade,
    close() {
      for (const socket of sockets) socket.terminate();
      clients.close();
    },
  };
}
