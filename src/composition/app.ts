// The service as one object: its services (services.ts) and the HTTP app in front of them — the
// middleware every request passes, the documentation assets, the STOMP endpoint, every operation
// of openapi.yaml, and the error handlers. main.ts runs it; tests build it with their own ports.
import { Hono } from 'hono';
import type { OperationId } from '../../generated/operations.js';
import type { Config } from '../config/config.js';
import type { DatabasePort } from '../db/databasePort.js';
import { storageUnavailable } from '../db/storageFailure.js';
import { clientAddressOf } from '../http/clientAddress.js';
import { createConnectionGate, type ConnectionGate } from '../http/connectionLimits.js';
import { handleErrors } from '../http/errorHandlers.js';
import type { HttpEnv } from '../http/httpEnv.js';
import { useMiddlewareStack } from '../http/middlewareStack.js';
import { requestMetrics } from '../http/requestMetrics.js';
import { registerOperations } from '../http/operationRouter.js';
import { createResponseChecker, type ResponseChecker } from '../http/responseValidation.js';
import { registerAsyncapiAssets } from '../operational/asyncapiPage.js';
import { registerDashboardAssets } from '../operational/dashboardPage.js';
import { registerPlaygroundAssets } from '../operational/playgroundPage.js';
import { registerSwaggerUiAssets } from '../operational/swaggerUi.js';
import { operationHandlers } from './operationHandlers.js';
import { registerStompEndpoint, type StompEndpoint } from '../stomp/stompEndpoint.js';
import { createServices, stompEndpointDeps, type AppPorts, type Services } from './services.js';

export type { AppPorts };

export interface App {
  hono: Hono<HttpEnv>;
  services: Services;
  checker: ResponseChecker;
  stomp: StompEndpoint;
  /** the connection caps of the HTTP server this app is served by (server.ts counts its sockets here) */
  connections: ConnectionGate;
  worker: Services['worker'];
  chat: Services['chat'];
  publishers: Services['publishers'];
  broker: Services['broker'];
  sessionPurge: Services['sessionPurge'];
  /** stops generation (AI002, plans FAILED), then closes connections and the database */
  close(): Promise<void>;
}

/** The service on `database` (opened and migrated: openDatabase.ts); `close()` closes it. */
export async function createApp(config: Config, database: DatabasePort, ports: Partial<AppPorts> = {}): Promise<App> {
  const services = await createServices(config, database, ports);
  const { log, worker, chat, publishers, broker, planLog, sessionPurge } = services;
  const checker = createResponseChecker(config.responseValidation, log);
  const disabled = new Set<OperationId>([
    ...(config.devLoginEnabled ? [] : (['devLogin'] as const)),
    ...(config.oidc ? [] : (['startOidcSignIn', 'completeOidcSignIn', 'exchangeOidcSignInCode'] as const)),
    // Off, or without a token on a non-loopback HOST or behind a proxy: not exposed (404).
    ...(config.metrics.served ? [] : (['getMetrics'] as const)),
  ]);
  const { metrics } = services;

  const behindProxies = config.trustProxyHops > 0;
  const connections = createConnectionGate({
    ...config.connections,
    behindProxies,
    ...(metrics && {
      onOpen: () => metrics.connectionsOpen.inc(),
      onClose: () => metrics.connectionsOpen.dec(),
      onRefused: (refusal) => metrics.connectionsRefused.inc({ reason: refusal === 'address' ? 'per_address' : 'instance' }),
    }),
  });

  const hono = new Hono<HttpEnv>();
  if (metrics) hono.use('*', requestMetrics(metrics, disabled));
  useMiddlewareStack(hono, config, log, services.rateLimitStore ?? undefined, metrics ? () => metrics.rateLimitRejections.inc() : undefined, connections);
  registerSwaggerUiAssets(hono);
  registerAsyncapiAssets(hono);
  registerDashboardAssets(hono);
  registerPlaygroundAssets(hono);
  // Behind proxies the sockets are the proxies': a WebSocket is counted by the client address they forwarded.
  const clientAddress = clientAddressOf(config.trustProxyHops);
  const stomp = registerStompEndpoint(hono, stompEndpointDeps(services), log, behindProxies ? (c) => connections.holdWebSocket(clientAddress(c)) : undefined);
  registerOperations(hono, {
    handlers: operationHandlers(services),
    authenticate: (authorization) => services.auth.authenticate(authorization),
    checker,
    disabled,
    clientAddress: clientAddressOf(config.trustProxyHops),
  });
  handleErrors(hono, { log, checker, disabled, storageUnavailable });

  return {
    hono,
    services,
    checker,
    stomp,
    connections,
    worker,
    chat,
    publishers,
    broker,
    sessionPurge,
    async close() {
      services.oidcProvider?.stop();
      sessionPurge.stop();
      await sessionPurge.idle();
      // Generations first: their AI002 reaches clients whose connections are still open.
      await worker.stop();
      await chat.stop();
      await publishers.settled();
      stomp.closeAll();
      await planLog.close();
      await services.redis?.close();
      await database.close();
    },
  };
}
