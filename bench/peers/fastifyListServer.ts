// The benchmark's Fastify peer of `GET /api/v1/trips` and `GET /api/v1/trips/{tripPlanId}`, written
// by hand the way a careful Fastify service would be, doing per request the work our server does:
// the HS256 access token verified by fast-jwt and the session looked up live (peerAccess.ts), the
// query or path validated by Fastify's ajv against openapi.yaml's parameters, one prepared raw
// statement for the page (plus the cursor's lookup on later pages) or the detail
// (peerTripStatements.ts), on SQLite (better-sqlite3) or PostgreSQL (a pg.Pool, named statements),
// as peerDatabase.ts says, the body written by fast-json-stringify from openapi.yaml's response
// schema, and the headers our server sends there (X-Request-Id, CORS for any origin). Production
// settings: warn-level logging, no response validation, no rate limit (the benchmarks start it with
// NODE_ENV=production). One difference left: it takes a non-canonical integer (`042`, `+42`) for
// its number where our server answers 400, as Fastify's ajv coerces the text before a schema sees it.
// test/bench/fastifyPeerParity*.test.ts hold it to the same bodies as our server on each engine.
// GET /readyz answers 200 when it listens. Settings from the environment: PORT, JWT_SECRET, and
// DATABASE_URL (postgres://…, with DATABASE_POOL_MAX, default 10 as the service's) or DATABASE_FILE.
import crypto from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { fileURLToPath } from 'node:url';
import { schemaValidators } from '../../generated/validators.js';
import { inlined, querySchema, readOpenApi, responseSchema } from './openapiJsonSchema.js';
import { peerAccess } from './peerAccess.js';
import type { PeerDatabase } from './peerDatabase.js';
import { errorEnvelope, fieldErrors } from './peerErrors.js';
import { peerTripStatements } from './peerTripStatements.js';

/** A setting the peer cannot run without (an unset DATABASE_FILE would open an empty in-memory database). */
function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`fastifyListServer: set ${name}`);
  return value;
}

/** PostgreSQL when DATABASE_URL names it, else the SQLite file DATABASE_FILE; only that engine's driver is loaded. */
async function openDatabase(): Promise<PeerDatabase> {
  const url = process.env.DATABASE_URL;
  if (url?.startsWith('postgres://') || url?.startsWith('postgresql://')) {
    const { postgresPeerDatabase } = await import('./peerDatabase.postgres.js');
    return postgresPeerDatabase(url, Number(process.env.DATABASE_POOL_MAX ?? 10));
  }
  const { sqlitePeerDatabase } = await import('./peerDatabase.sqlite.js');
  return sqlitePeerDatabase(setting('DATABASE_FILE'));
}

const root = fileURLToPath(new URL('../..', import.meta.url));
const doc = readOpenApi(root);
const database = await openDatabase();
const authenticate = peerAccess(database, setting('JWT_SECRET'));
const trips = peerTripStatements(database);
const isRequestId = schemaValidators.openapi.RequestId;
const exposed = 'Location,X-Request-Id,Retry-After,RateLimit-Limit,RateLimit-Remaining,RateLimit-Reset';

declare module 'fastify' {
  interface FastifyRequest {
    memberId: number;
  }
}

// Every failing field reported, as our server's validators do (an unknown query parameter is dropped
// by Fastify's default, and ignored by our server).
const app = Fastify({ logger: { level: 'warn' }, disableRequestLogging: true, ajv: { customOptions: { allErrors: true } } });
app.decorateRequest('memberId', 0);
app.addHook('onRequest', (request, reply, done) => {
  const incoming = request.headers['x-request-id'];
  reply.header('X-Request-Id', typeof incoming === 'string' && isRequestId(incoming) ? incoming : crypto.randomUUID());
  reply.header('Access-Control-Allow-Origin', '*');
  reply.header('Access-Control-Expose-Headers', exposed);
  done();
});
app.setErrorHandler((error: { validation?: Parameters<typeof fieldErrors>[1]; validationContext?: string }, request, reply) => {
  if (!error.validation) return reply.code(500).send(errorEnvelope('COMMON500', request.url.split('?')[0]!));
  const input = (error.validationContext === 'params' ? request.params : request.query) as Record<string, unknown>;
  return reply.code(400).send(errorEnvelope('COMMON001', request.url.split('?')[0]!, fieldErrors(error.validationContext ?? '', error.validation, input)));
});

/** Before validation, as our server authenticates first: the caller's member id, or the 401. */
async function signedIn(request: FastifyRequest, reply: FastifyReply) {
  const caller = await authenticate(request.headers.authorization);
  if ('error' in caller) return reply.code(401).send(errorEnvelope(caller.error, request.url.split('?')[0]!));
  request.memberId = caller.memberId;
}

const errorResponses = (codes: number[]) => Object.fromEntries(codes.map((code) => [code, inlined(doc, { $ref: '#/components/schemas/ErrorEnvelope' })]));

app.get('/readyz', () => ({ status: 'UP' }));
app.get<{ Querystring: { size: number; sort: string; cursor?: number } }>(
  '/api/v1/trips',
  {
    onRequest: signedIn,
    schema: {
      querystring: querySchema(doc, '/api/v1/trips', 'get'),
      response: { 200: responseSchema(doc, '/api/v1/trips', 'get', '200'), ...errorResponses([400, 401]) },
    },
  },
  async (request, reply) => {
    const { size, sort, cursor } = request.query;
    const data = await trips.page(request.memberId, sort, size, cursor);
    if (!data)
      return reply
        .code(400)
        .send(
          errorEnvelope('COMMON001', '/api/v1/trips', [{ field: 'query.cursor', rejectedValue: cursor!, message: 'is not the id of one of your trip plans' }]),
        );
    return { success: true, status: 200, data };
  },
);
app.get<{ Params: { tripPlanId: number } }>(
  '/api/v1/trips/:tripPlanId',
  {
    onRequest: signedIn,
    schema: {
      params: pathSchema('/api/v1/trips/{tripPlanId}'),
      response: { 200: responseSchema(doc, '/api/v1/trips/{tripPlanId}', 'get', '200'), ...errorResponses([400, 401, 404]) },
    },
  },
  async (request, reply) => {
    const data = await trips.detail(request.memberId, request.params.tripPlanId);
    if (!data) return reply.code(404).send(errorEnvelope('TRIP101', request.url));
    return { success: true, status: 200, data };
  },
);

/** The path parameters of a path (declared on the path item) as one object schema. */
function pathSchema(pathName: string) {
  const item = inlined(doc, doc.paths[pathName]!) as { parameters?: { name: string; in: string; schema: never }[] };
  const params = (item.parameters ?? []).filter((p) => p.in === 'path');
  return { type: 'object', properties: Object.fromEntries(params.map((p) => [p.name, p.schema])), required: params.map((p) => p.name) };
}

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
