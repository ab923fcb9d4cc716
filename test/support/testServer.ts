// A test app behind a real HTTP + WebSocket server on a free loopback port.
import { startServer, type RunningServer } from '../../src/composition/server.js';
import { startTestApp, type TestApp, type TestAppOptions } from './testApp.js';

export interface TestServer extends TestApp {
  server: RunningServer;
  url: string;
  stop(): Promise<void>;
}

export async function startTestServer(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestServer> {
  const t = await startTestApp(env, options);
  // A front, when there is one, also takes the WebSocket upgrades and forwards them.
  const server = await startServer({ ...t.app, hono: t.http }, 0);
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
