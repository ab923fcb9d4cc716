// The benchmark's Fastify + ajv peer of `GET /api/v1/trips`: Fastify's own ajv validates the query
// against openapi.yaml's parameters and its fast-json-stringify writes the body from openapi.yaml's
// response schema (Fastify's way of using a response schema), around the same hand-written
// authentication, query and envelope as every peer (peerListRoute.ts). GET /readyz answers 200 when
// it listens. Settings from the environment: PORT, DATABASE_FILE, JWT_SECRET.
import Fastify from 'fastify';
import { fileURLToPath } from 'node:url';
import { querySchema, readOpenApi, responseSchema } from './openapiJsonSchema.js';
import { peerListRoute, type ListQuery } from './peerListRoute.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const doc = readOpenApi(root);
const route = peerListRoute(process.env.DATABASE_FILE!, process.env.JWT_SECRET!);
const errorBody = (status: number, code: string) => ({ success: false, status, data: { code } });

const app = Fastify({ logger: false });
app.get('/readyz', () => ({ status: 'UP' }));
app.get<{ Querystring: ListQuery }>(
  '/api/v1/trips',
  { schema: { querystring: querySchema(doc, '/api/v1/trips', 'get'), response: { 200: responseSchema(doc, '/api/v1/trips', 'get', '200') } } },
  (request, reply) => {
    const caller = route.authenticate(request.headers.authorization);
    if ('error' in caller) return reply.code(401).send(errorBody(401, caller.error));
    const page = route.listPage(caller.memberId, request.query);
    if (!page) return reply.code(400).send(errorBody(400, 'COMMON001'));
    return page;
  },
);

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app.close().then(() => {
    route.close();
    process.exit(0);
  });
});
