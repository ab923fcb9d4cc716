// The benchmark's Hono + openapi-backend peer of `GET /api/v1/trips`: openapi-backend routes the
// request by openapi.yaml and validates its parameters (generic interpretation of the spec, the way
// before codegen), around the same hand-written authentication, query and envelope as every peer
// (peerListRoute.ts); the body goes out with Hono's c.json. GET /readyz answers 200 when it
// listens. Settings from the environment: PORT, DATABASE_FILE, JWT_SECRET.
import { serve } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import type { Document } from 'openapi-backend';
import { fileURLToPath } from 'node:url';
import { openapiBackend31 } from '../../test/support/openapiBackend31.js';
import { readOpenApi } from './openapiJsonSchema.js';
import { peerListRoute } from './peerListRoute.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const route = peerListRoute(process.env.DATABASE_FILE!, process.env.JWT_SECRET!);
const errorBody = (status: number, code: string) => ({ success: false, status, data: { code } });

const api = openapiBackend31(readOpenApi(root) as unknown as Document);
api.register({
  listTripPlans: (context, c: Context) => {
    const caller = route.authenticate(c.req.header('authorization'));
    if ('error' in caller) return c.json(errorBody(401, caller.error), 401);
    const query = context.request.query as Record<string, string | undefined>;
    const page = route.listPage(caller.memberId, {
      size: query.size === undefined ? 10 : Number(query.size),
      sort: query.sort ?? 'createdAt:desc',
      ...(query.cursor !== undefined && { cursor: Number(query.cursor) }),
    });
    return page ? c.json(page) : c.json(errorBody(400, 'COMMON001'), 400);
  },
  validationFail: (_context, c: Context) => c.json(errorBody(400, 'COMMON001'), 400),
  notFound: (_context, c: Context) => c.json(errorBody(404, 'COMMON404'), 404),
});
await api.init();

const app = new Hono();
app.get('/readyz', (c) => c.json({ status: 'UP' }));
app.all('*', async (c) => {
  const url = new URL(c.req.url);
  const response = (await api.handleRequest(
    { method: c.req.method, path: url.pathname, query: Object.fromEntries(url.searchParams), headers: c.req.header() },
    c,
  )) as Response;
  return response;
});

const server = serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' });
process.on('SIGTERM', () => {
  server.close(() => {
    route.close();
    process.exit(0);
  });
  if ('closeAllConnections' in server) server.closeAllConnections();
});
