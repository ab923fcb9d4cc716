// The mock of both specs in one Hono app: HTTP operations answered from openapi.yaml's examples
// after the service's own checks (the documents and docs pages by the service's own handlers,
// mockDocuments.ts), and STOMP at /ws-stomp run by the service's own session code (CONNECT,
// heart-beats, subprotocols, destinations, limits, receipts, ERROR frames) with mock accounts and
// the example streams of asyncapi.yaml (mockGeneration.ts). Faults a client asks for with
// `x-mock-fault` (faultHeader.ts) are counted here, across requests and connections. What it does
// not do is in docs/mock.md.
import path from 'node:path';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context, type Next } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import {
  readChatMessage,
  createOfflineChatAgent,
  loadConfig,
  AppError,
  renderError,
  type HttpEnv,
  allowedMethods,
  rateLimit,
  requestLogging,
  createLogger,
  type Logger,
  createInProcessBroker,
  createInMemoryPlanLog,
  planStream,
  roomStream,
  createPublishers,
  registerStompEndpoint,
  type StompEndpoint,
} from '../../src/index.js';
import { loadSpecFolder } from '../../conformance/specModel/index.js';
import { readAsyncExamples } from './asyncExamples.js';
import { createFaultUses } from './faultUses.js';
import { createMockAuth } from './mockAuth.js';
import { registerServiceDocuments } from './mockDocuments.js';
import { createMockGeneration, type MockGeneration } from './mockGeneration.js';
import { registerMockOperations, type AnsweredRequest } from './mockOperations.js';
import { methodNotAllowed, routeNotFound } from './routeErrors.js';
import { readOperationAnswers } from './specAnswers.js';
import { createMockStompFaults } from './stompFaults.js';

export interface Mock {
  hono: Hono<HttpEnv>;
  stomp: StompEndpoint;
  generation: MockGeneration;
  log: Logger;
  close(): void;
}

/** The specs the mock serves: this repository's. */
const specsDir = path.resolve(import.meta.dirname, '../../specs');

function integerSetting(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

export function createMock(env: NodeJS.ProcessEnv = process.env, clock: () => number = Date.now): Mock {
  // The service's settings (STOMP_*, BODY_LIMIT_BYTES, CORS_ORIGINS, LOG_LEVEL); the mock is never
  // the production service, so the production checks (a JWT secret) do not apply to it.
  const config = loadConfig({ ...env, NODE_ENV: env.NODE_ENV === 'test' ? 'test' : 'development' });
  const log = createLogger(config.logLevel).child({ mock: true });
  const specs = loadSpecFolder(specsDir);
  const answers = readOperationAnswers(specs.openapi);
  if (!specs.asyncapi) throw new Error(`the mock streams the examples of asyncapi.yaml, which ${specsDir} does not have`);
  const examples = readAsyncExamples(specs.asyncapi);
  // Every token belongs to the member of the getMe example, so CONNECTED's user-name matches getMe.
  const memberId = Number((answers.get('getMe')?.responses.get(200)?.examples[0]?.value as { data?: { id?: unknown } })?.data?.id ?? 1);
  const auth = createMockAuth(memberId);
  const broker = createInProcessBroker((error) => log.error({ err: error }, 'delivery failed'));
  const planLog = createInMemoryPlanLog({ broker, historySize: config.realtime.historySize, historyTtlMs: config.realtime.historyTtlSeconds * 1000, clock });
  const publishers = createPublishers(planLog, 'log', log);
  const agent = createOfflineChatAgent();
  const generation = createMockGeneration({
    publishers,
    examples,
    memberId,
    clock,
    log,
    delayMs: integerSetting(env, 'MOCK_STREAM_DELAY_MS', config.plannerDelayMs),
    // The mock has no days to show: the agent's reply is not used, only whether it found an edit.
    isEdit: async (content) => (await agent.decide({ tripPlanId: 1, region: '', content, days: [] }, new AbortController().signal)).edit !== null,
  });
  // Counted across requests and connections: "n times, then as usual" (docs/mock.md, Faults).
  const faultUses = createFaultUses();

  const app = new Hono<HttpEnv>();
  app.use('*', requestLogging(log));
  app.use(
    '*',
    cors({
      origin: config.corsOrigins.includes('*') ? '*' : config.corsOrigins,
      allowHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'Prefer', 'X-Mock-Fault'],
      exposeHeaders: ['Location', 'Allow', 'X-Request-Id', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'],
      maxAge: 600,
    }),
  );
  // On by default even under test, so clients see the RateLimit-* headers the service sends.
  const limit = integerSetting(env, 'MOCK_RATE_LIMIT_PER_MINUTE', 6000);
  if (limit > 0) {
    const clientKey = (c: Parameters<typeof getConnInfo>[0]) => {
      try {
        return getConnInfo(c).remote.address ?? 'unknown';
      } catch {
        return 'in-process'; // app.request() in tests has no socket
      }
    };
    app.use('*', rateLimit({ limit, windowSeconds: 60, clientKey }));
  }
  const limitBody = bodyLimit({
    maxSize: config.bodyLimitBytes,
    onError: () => {
      throw new AppError('COMMON413', `The request body is larger than ${config.bodyLimitBytes} bytes.`);
    },
  });
  app.use('*', (c: Context<HttpEnv, string>, next: Next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limitBody(c, next)));

  const stomp = registerStompEndpoint(
    app,
    {
      auth,
      broker,
      planLog,
      log,
      clock,
      settings: config.stomp,
      faults: createMockStompFaults(faultUses),
      revocations: { publish: () => undefined, subscribe: () => () => undefined },
      // Every plan and room exists and is the caller's; plan N's chat room is N.
      logOf: (_memberId, channel, id) => Promise.resolve(channel === 'chatStream' ? roomStream(id) : planStream(id)),
      onChatMessage: (_principal, chatRoomId, body) => {
        const request = readChatMessage(body);
        if ('code' in request) return Promise.resolve(request);
        if (generation.isPlaying(chatRoomId))
          return Promise.resolve({ code: 'TRIP106' as const, message: examples.errorMessages.TRIP106 ?? 'The itinerary is being generated.' });
        generation.answer(chatRoomId, request.content);
        return Promise.resolve('accepted' as const);
      },
      publishError(member, chatRoomId, code, message, path) {
        publishers.error(
          { memberId: member, chatRoomId, tripPlanId: chatRoomId },
          { timestamp: new Date(clock()).toISOString(), code, message, path, errors: null },
        );
        return Promise.resolve();
      },
    },
    log,
  );

  const answered = ({ operationId, status, path, body, newEpochAfter }: AnsweredRequest) => {
    const tripPlanId = Number(path.tripPlanId);
    if (operationId === 'startTripPlanGeneration' && status === 200) generation.start(tripPlanId, { newEpochAfter });
    if ((operationId === 'cancelTripPlanGeneration' && status === 200) || (operationId === 'deleteTripPlan' && status === 204)) generation.cancel(tripPlanId);
    if (operationId === 'swapScheduledPlaces' && status === 204) generation.swapped(tripPlanId, (body as { chatRoomId: number }).chatRoomId);
  };
  const served = registerServiceDocuments(app, { config, log, auth });
  registerMockOperations(app, { answers, auth, answered, served, faultUses });

  app.notFound((c) => {
    const allow = allowedMethods(c.req.path, new Set());
    return allow.length > 0 ? methodNotAllowed(c.req.method, c.req.path, allow) : routeNotFound(c.req.method, c.req.path);
  });
  app.onError((err, c) => {
    if (!(err instanceof AppError)) c.get('log').error({ err }, 'unexpected error in the mock');
    const rendered = renderError(err instanceof AppError ? err : new AppError('COMMON500'), c.req.path);
    return c.json(rendered.body, rendered.status as 500, rendered.headers);
  });

  return {
    hono: app,
    stomp,
    generation,
    log,
    close() {
      generation.stop();
      stomp.closeAll();
    },
  };
}
