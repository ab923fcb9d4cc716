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
import { createTokenSigner } from './auth/tokens.js';
import { chatHandlers } from './chats/chatHandlers.js';
import type { Config } from './config.js';
import { openDatabase } from './db/database.js';
import { createInProcessEventBus, type EventBus } from './generation/eventBus.js';
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
import { loadSpecDocuments } from './operational/specDocuments.js';
import { registerSwaggerUiAssets } from './operational/swaggerUi.js';
import { promptHandlers } from './prompts/promptHandlers.js';
import type { RequestContext, Services } from './services.js';
import { tripHandlers } from './trips/tripHandlers.js';

export interface AppOptions {
  clock?: () => number;
  logger?: Logger;
  events?: EventBus;
  /** replace some handlers (the conformance suite's broken variants use this) */
  handlerOverrides?: Partial<Handlers<RequestContext>>;
}

export interface App {
  hono: Hono<HttpEnv>;
  services: Services;
  checker: ResponseChecker;
  close(): void;
}

export function createApp(config: Config, options: AppOptions = {}): App {
  const log = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? Date.now;
  const database = openDatabase(config.databaseFile);
  const signer = createTokenSigner(resolveJwtSecret(config), { access: config.accessTokenTtlSeconds, refresh: config.refreshTokenTtlSeconds });
  const auth = createAuthService({ db: database.db, signer, clock, accessTtlSeconds: config.accessTokenTtlSeconds, refreshTtlSeconds: config.refreshTokenTtlSeconds });
  const events = options.events ?? createInProcessEventBus((error, name) => log.error({ err: error, event: name }, 'event listener failed'));
  const services: Services = { config, database, db: database.db, log, clock, auth, events };
  const checker = createResponseChecker(config.responseValidation, log);
  const disabled = new Set<OperationId>(config.devLoginEnabled ? [] : ['devLogin']);

  const handlers: Handlers<RequestContext> = {
    ...tripHandlers,
    ...authHandlers,
    ...memberHandlers,
    ...chatHandlers,
    ...promptHandlers,
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
  app.use(
    '*',
    bodyLimit({
      maxSize: config.bodyLimitBytes,
      onError: () => {
        throw new AppError('COMMON413', `The request body is larger than ${config.bodyLimitBytes} bytes.`);
      },
    }),
  );
  registerSwaggerUiAssets(app);
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
    if (err instanceof AppError) {
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
    close: () => database.close(),
  };
}
