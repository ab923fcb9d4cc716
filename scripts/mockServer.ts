// `npm run mock`: a mock of the whole HTTP API (specs/openapi.yaml) answering from the spec's
// examples, for client teams who build against the contract without running the service. Listens on
// MOCK_PORT (default 4010); `Prefer: code=404` / `Prefer: example=<name>` pick other documented
// responses, as with Prism.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import type { OpenAPIBackend } from 'openapi-backend';
import { createMockBackend } from './mock/mockBackend.js';

const defaultSpec = fileURLToPath(new URL('../specs/openapi.yaml', import.meta.url));

export async function createMockApp(api?: OpenAPIBackend): Promise<Hono> {
  const backend = api ?? (await createMockBackend(defaultSpec));
  const app = new Hono();
  // Browser clients on another origin call the mock directly, as they would the service.
  app.use('*', cors({ origin: '*', exposeHeaders: ['Location', 'Allow', 'Retry-After'], maxAge: 600 }));
  app.all('*', async (c) => {
    const url = new URL(c.req.url);
    const body = c.req.method === 'GET' || c.req.method === 'HEAD' ? undefined : await c.req.text();
    const response: unknown = await backend.handleRequest({ method: c.req.method, path: url.pathname, query: url.search.slice(1), headers: c.req.header(), body }, c);
    return response as Response;
  });
  return app;
}

function portFromEnv(): number {
  const raw = process.env.MOCK_PORT ?? '4010';
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`MOCK_PORT must be a port number, got "${raw}"`);
  return port;
}

async function main(): Promise<void> {
  const api = await createMockBackend(defaultSpec);
  const app = await createMockApp(api);
  const hostname = process.env.MOCK_HOST ?? '127.0.0.1';
  const server = serve({ fetch: app.fetch, port: portFromEnv(), hostname }, (info) => {
    const shown = hostname === '0.0.0.0' ? 'localhost' : hostname;
    process.stdout.write(`mock server on http://${shown}:${info.port} serving ${api.getOperations().length} operations of ${path.relative(process.cwd(), defaultSpec)} from their examples\n`);
  });
  const stop = () => {
    server.close(() => process.exit(0));
    // Idle keep-alive sockets would otherwise hold close() open for seconds.
    if ('closeAllConnections' in server) server.closeAllConnections();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`mock server failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
