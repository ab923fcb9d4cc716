// Starts the HTTP server (and attaches the WebSocket upgrade for /ws-stomp to it) for an app; used by main.ts,
// the end-to-end tests and the benchmarks.
import type { ServerOptions } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { serve } from '@hono/node-server';
import type { App } from './app.js';

export interface RunningServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

export function startServer(app: App, port: number, host = '127.0.0.1'): Promise<RunningServer> {
  const { headersMs, requestMs, keepAliveMs } = app.services.config.httpTimeouts;
  const serverOptions: ServerOptions = {
    headersTimeout: headersMs,
    requestTimeout: requestMs,
    keepAliveTimeout: keepAliveMs,
    // How often node looks for requests past those times (its default, 30 s, let a slow request
    // live 60-90 s): a few checks per headers timeout, at most one a second.
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersMs / 4))),
  };
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.hono.fetch, port, hostname: host, serverOptions }, (info: AddressInfo) => {
      // Listening: an error now (accept() out of open files) is reported, not a reason to end the process.
      server.off('error', reject);
      server.on('error', (error) => app.services.log.error({ err: error }, 'http server error'));
      resolve({
        port: info.port,
        url: `http://${host === '0.0.0.0' ? 'localhost' : host}:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            app.stomp.closeAll();
            server.close(() => done());
            // Keep-alive HTTP connections would hold close() open.
            (server as import('node:http').Server).closeAllConnections?.();
          }),
      });
    });
    // Counted from accept, before a byte is read: the caps bound idle and slow sockets too.
    server.on('connection', (socket: Socket) => app.connections.admit(socket));
    app.stomp.attach(server as import('node:http').Server, app.hono.fetch);
    server.once('error', reject);
  });
}
