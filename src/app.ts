// Builds the service: database, auth, event bus and the Hono app with every operation of the spec.
// Used by main.ts (the process) and by tests (in-process, with their own config and clock).
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import type { Handlers, OperationId } from '../generated/operations.js';
import { createAuthService } from './auth/authService.js';
import { authHandlers } from './auth/authHandlers.js';
import { resolveJwtSecret } from './auth/jwtSecret.js';
import { createInProcessSessionRevocations } from './auth/sessionRevocations.js';
import { startSessionPurge, type SessionPurge } from './auth/sessionPurge.js';
import { createTokenSigner } from './auth/tokens.js';
import { chatHandlers } from './chats/chatHandlers.js';
import type { Config } from './config.js';
import { openDatabase } from './db/database.js';
import { storageFailureCode, storageUnavailable } from './db/storageFailure.js';
import { createInProcessEventBus, type EventBus } from './events/eventBus.js';
import { AppError } from './http/appError.js';
import { renderError } from './http/envelope.js';
import type { HttpEnv } from './http/httpEnv.js';
import { allowedMethods, registerOperations } from './http/operationRouter.js';
import { rateLimit } from './http/rateLimit.js';
import { requestLogging } from './http/requestLogging.js';
import { createResponseChecker, type ResponseChecker } from './http/responseValidation.js';
import { createLogger, type Logger } from './logger.js';
import { memberHandlers } from './members/memberHandlers.js';
import { createOperationalHandlers } from './operational/operationalHandlers.js';
import { registerAsyncapiAssets } from './operational/asyncapiPage.js';
import { loadSpecDocuments } from './operational/specDocuments.js';
import { registerSwaggerUiAssets } from './operational/swaggerUi.js';
import { promptHandlers } from './prompts/promptHandlers.js';
import type { RequestContext, Services } from './services.js';
import { regionHandlers } from './trips/regionHandlers.js';
import { tripHandlers } from './trips/tripHandlers.js';
import type { ChatAgent } from './chats/chatAgent.js';
import { findOwnChatRoom } from './chats/chatRepository.js';
import { createChatService, type ChatService } from './chats/chatService.js';
import { syncCatalogue } from './catalogue/placeRepository.js';
import { startGenerationWorker, type GenerationWorker } from './generation/generationWorker.js';
import type { Planner } from './generation/planner.js';
import { createChatAgent, createPlanner, createPlannerRegions } from './generation/plannerFactory.js';
import { createInProcessBroker, type Broker } from './realtime/broker.js';
import { createPublishers, type Publishers } from './realtime/publishers.js';
import { registerStompEndpoint, type StompEndpoint } from './realtime/stompEndpoint.js';
import { findDay } from './trips/dailyPlanRepository.js';
import { toDailyPlanResponse } from './trips/tripPlanMappers.js';
import { findOwnTripPlanRow, markInterruptedGenerationsFailed } from './trips/tripPlanRepository.js';

export interface AppOptions {
  clock?: () => number;
  logger?: Logger;
  events?: EventBus;
  /** replaces the configured planner (tests: failing or slow planners) */
  planner?: Planner;
  chatAgent?: ChatAgent;
  /** replace some handlers (the conformance suite's broken variants use this) */
  handlerOverrides?: Partial<Handlers<RequestContext>>;
  /** routes registered before the spec's operations, so they take precedence (broken variants) */
  extraRoutes?: (app: Hono<HttpEnv>) => void;
  /** wraps the message broker (broken variants tamper with delivered messages) */
  wrapBroker?: (broker: Broker) => Broker;
}

export interface App {
  hono: Hono<HttpEnv>;
  services: Services;
  checker: ResponseChecker;
  stomp: StompEndpoint;
  worker: GenerationWorker;
  chat: ChatService;
  publishers: Publishers;
  broker: Broker;
  sessionPurge: SessionPurge;
  /** stops generation (AI002, plans FAILED), then closes connections and the database */
  close(): Promise<void>;
}

export function createApp(config: Config, options: AppOptions = {}): App {
  const log = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? Date.now;
  const database = openDatabase(config.databaseFile);
  const signer = createTokenSigner(resolveJwtSecret(config), { access: config.accessTokenTtlSeconds, refresh: config.refreshTokenTtlSeconds });
  const revocations = createInProcessSessionRevocations((error) => log.error({ err: error }, 'session revocation listener failed'));
  const auth = createAuthService({ db: database.db, signer, clock, accessTtlSeconds: config.accessTokenTtlSeconds, refreshTtlSeconds: config.refreshTokenTtlSeconds, revocations });
  const events = options.events ?? createInProcessEventBus((error, name) => log.error({ err: error, event: name }, 'event listener failed'));
  const services: Services = { config, database, db: database.db, log, clock, auth, events, regions: createPlannerRegions(config) };
  const sessionPurge = startSessionPurge({ db: database.db, clock, log, retentionDays: config.sessionRetentionDays, intervalMinutes: config.sessionPurgeIntervalMinutes });
  syncCatalogue(database.db);
  const interrupted = markInterruptedGenerationsFailed(database.db, clock());
  if (interrupted.length > 0) log.warn({ tripPlanIds: interrupted }, 'generations interrupted by a restart or crash marked FAILED (AI002)');
  const inProcessBroker = createInProcessBroker((error) => log.error({ err: error }, 'message delivery failed'));
  const broker = options.wrapBroker ? options.wrapBroker(inProcessBroker) : inProcessBroker;
  const publishers = createPublishers(broker, config.responseValidation, log);
  const worker = startGenerationWorker({
    db: database.db,
    events,
    planner: options.planner ?? createPlanner(config, database.db, log),
    publishers,
    log,
    clock,
    concurrency: config.generationConcurrency,
    concurrencyPerMember: config.generationConcurrencyPerUser,
  });
  const chat = createChatService({
    db: database.db,
    agent: options.chatAgent ?? createChatAgent(config, database.db, log),
    publishers,
    log,
    clock,
  });
  events.subscribe('tripPlanDayUpdated', ({ memberId, tripPlanId, chatRoomId, dayNumber, summary }) => {
    const day = findDay(database.db, tripPlanId, dayNumber);
    if (!day) return;
    publishers.schedule(memberId, tripPlanId, { type: 'UPDATED', tripPlanId, dailyPlan: toDailyPlanResponse(day), message: summary });
    publishers.chat(memberId, chatRoomId, { message: summary, isComplete: true, timestamp: new Date(clock()).toISOString(), messageStreamType: 'UPDATED' });
  });
  const checker = createResponseChecker(config.responseValidation, log);
  const disabled = new Set<OperationId>(config.devLoginEnabled ? [] : ['devLogin']);

  const handlers: Handlers<RequestContext> = {
    ...tripHandlers,
    ...authHandlers,
    ...memberHandlers,
    ...chatHandlers,
    ...promptHandlers,
    ...regionHandlers,
    ...createOperationalHandlers(loadSpecDocuments()),
    ...options.handlerOverrides,
  };

  const app = new Hono<HttpEnv>();
  app.use('*', requestLogging(log));
  app.use(
    '*',
    cors({
      origin: config.corsOrigins.includes('*') ? '*' : config.corsOrigins,
      allowHeaders: ['Authorization', 'Content-Type', 'X-Request-Id'],
      exposeHeaders: ['Location', 'X-Request-Id', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'],
      maxAge: 600,
    }),
  );
  if (config.rateLimitPerWindow > 0) {
    app.use(
      '*',
      rateLimit({
        limit: config.rateLimitPerWindow,
        windowSeconds: config.rateLimitWindowSeconds,
        clock,
        clientKey: (c) => {
          try {
            return getConnInfo(c).remote.address ?? 'unknown';
          } catch {
            return 'in-process';
          }
        },
      }),
    );
  }
  const limitBody = bodyLimit({
    maxSize: config.bodyLimitBytes,
    onError: () => {
      throw new AppError('COMMON413', `The request body is larger than ${config.bodyLimitBytes} bytes.`);
    },
  });
  // GET and HEAD carry no body; skipping them also keeps node-server from building a full fetch
  // Request (the limiter reads `body`), which cost about a tenth of a list request.
  app.use('*', (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limitBody(c, next)));
  options.extraRoutes?.(app);
  registerSwaggerUiAssets(app);
  registerAsyncapiAssets(app);
  const stomp = registerStompEndpoint(
    app,
    {
      auth,
      broker,
      log,
      clock,
      settings: config.stomp,
      revocations,
      owns: (memberId, channel, id) =>
        channel === 'scheduleUpdates' ? findOwnTripPlanRow(database.db, memberId, id) !== undefined : findOwnChatRoom(database.db, memberId, id) !== undefined,
      onChatMessage: (principal, chatRoomId, body) => chat.receive(principal, chatRoomId, body),
      publishError: (memberId, chatRoomId, code, message, path) =>
        publishers.error(memberId, chatRoomId, { timestamp: new Date(clock()).toISOString(), code, message, path, errors: null }),
    },
    log,
  );
  registerOperations(app, { services, handlers, checker, disabled });

  app.notFound((c) => {
    const allow = allowedMethods(c.req.path, disabled);
    const error =
      allow.length > 0
        ? new AppError('COMMON405', `${c.req.method} is not allowed on ${c.req.path}; use ${allow.join(', ')}.`, { headers: { Allow: allow.join(', ') } })
        : new AppError('COMMON404', `No route for ${c.req.method} ${c.req.path}.`);
    const rendered = renderError(error, c.req.path);
    return c.json(rendered.body, rendered.status as 404, rendered.headers);
  });

  app.onError((err, c) => {
    const route = c.get('route');
    let error: AppError;
    const unavailable = storageUnavailable(err);
    if (unavailable) {
      // Nothing of the request was saved (a failed transaction rolls back): the client may retry.
      if (!(err instanceof AppError)) (c.get('log') ?? log).warn({ err, code: storageFailureCode(err), operationId: route?.operationId }, 'storage cannot take writes');
      error = unavailable;
    } else if (err instanceof AppError) {
      error = err;
    } else {
      (c.get('log') ?? log).error({ err, operationId: route?.operationId }, 'unexpected error');
      error = new AppError('COMMON500');
    }
    let rendered = renderError(error, c.req.path);
    if (route && checker.check(route, rendered.status, rendered.headers, rendered.body).length > 0) {
      rendered = renderError(new AppError('COMMON500'), c.req.path);
    }
    return c.json(rendered.body, rendered.status as 500, rendered.headers);
  });

  return {
    hono: app,
    services,
    checker,
    stomp,
    worker,
    chat,
    publishers,
    broker,
    sessionPurge,
    async close() {
      sessionPurge.stop();
      await sessionPurge.idle();
      // Generations first: their AI002 reaches clients whose connections are still open.
      await worker.stop();
      await chat.idle();
      stomp.closeAll();
      database.close();
    },
  };
}
