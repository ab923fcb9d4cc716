// `npm run mock`: a mock of both contracts for client teams who build against them without running
// the service. HTTP answers every operation of specs/openapi.yaml from its examples after checking
// the request as the service does; STOMP at /ws-stomp follows asyncapi.yaml's rules and streams its
// example messages after a start. Listens on MOCK_PORT (default 4010); `Prefer: code=404` /
// `Prefer: example=<name>` pick other documented responses, as with Prism, and `x-mock-fault`
// injects faults (docs/mock.md).
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createMock, type Mock } from './createMock.js';
import { wsUrl } from '../../conformance/index.js';

export interface RunningMock {
  mock: Mock;
  url: string;
  close(): Promise<void>;
}

export function startMockServer(port: number, hostname = '127.0.0.1', env: NodeJS.ProcessEnv = process.env): Promise<RunningMock> {
  const mock = createMock(env);
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: mock.hono.fetch, port, hostname }, (info: AddressInfo) => {
      resolve({
        mock,
        url: `http://${hostname === '0.0.0.0' ? 'localhost' : hostname}:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            mock.close();
            server.close(() => done());
            // Idle keep-alive sockets would otherwise hold close() open for seconds.
            (server as import('node:http').Server).closeAllConnections?.();
          }),
      });
    });
    mock.stomp.attach(server as import('node:http').Server, mock.hono.fetch);
    server.once('error', reject);
  });
}

function portFromEnv(): number {
  const raw = process.env.MOCK_PORT ?? '4010';
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`MOCK_PORT must be a port number, got "${raw}"`);
  return port;
}

async function main(): Promise<void> {
  const running = await startMockServer(portFromEnv(), process.env.MOCK_HOST ?? '127.0.0.1');
  process.stdout.write(
    `mock server: HTTP on ${running.url} (specs/openapi.yaml, answers from its examples) and STOMP on ${wsUrl(running.url)} (specs/asyncapi.yaml, streams its examples)\n`,
  );
  const stop = () => void running.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`mock server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
