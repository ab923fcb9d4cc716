// Starts the HTTP server (and attaches the WebSocket upgrade for /ws-stomp to it) for an app; used by main.ts,
// the end-to-end tests and the benchmarks.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { App } from './app.js';

export interface RunningServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

export function startServer(app: App, port: number, host = '127.0.0.1'): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.hono.fetch, port, hostname: host }, (info: AddressInfo) => {
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
    app.stomp.attach(server as import('node:http').Server, app.hono.fetch);
    server.once('error', reject);
  });
}
