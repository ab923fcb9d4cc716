// A test app behind a real HTTP + WebSocket server on a free loopback port.
import { startServer, type RunningServer } from '../../src/server.js';
import type { AppOptions } from '../../src/app.js';
import { startTestApp, type ResponseObserver, type TestApp } from './testApp.js';

export interface TestServer extends TestApp {
  server: RunningServer;
  url: string;
  stop(): Promise<void>;
}

export async function startTestServer(env: Record<string, string> = {}, options: AppOptions & { observe?: ResponseObserver } = {}): Promise<TestServer> {
  const t = startTestApp(env, options);
  const server = await startServer(t.app, 0);
  return {
    ...t,
    server,
    url: server.url,
    async stop() {
      await server.close();
      await t.close();
    },
  };
}
