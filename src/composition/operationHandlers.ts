// Every operation of openapi.yaml and its handler: each domain's handlers, created with what they
// work with.
import type { Handlers } from '../../generated/operations.js';
import { createAuthHandlers } from '../auth/authHandlers.js';
import { createOidcHandlers } from '../auth/oidcHandlers.js';
import { createChatHandlers } from '../chats/chatHandlers.js';
import { operationPath } from '../kernel/operationPath.js';
import type { RequestContext } from '../kernel/requestContext.js';
import { createMemberHandlers } from '../members/memberHandlers.js';
import { createMetricsHandler } from '../operational/metricsHandler.js';
import { createOperationalHandlers } from '../operational/operationalHandlers.js';
import { loadSpecDocuments } from '../operational/specDocuments.js';
import { createPromptHandlers } from '../prompts/promptHandlers.js';
import type { Services } from './services.js';
import { createRegionHandlers } from '../trips/regionHandlers.js';
import { createTripHandlers } from '../trips/tripHandlers.js';

export function operationHandlers(services: Services): Handlers<RequestContext> {
  return {
    ...createTripHandlers(services),
    ...createAuthHandlers(services),
    ...createOidcHandlers(services),
    ...createMemberHandlers(services),
    ...createChatHandlers(services),
    ...createPromptHandlers(services),
    ...createRegionHandlers(services),
    ...createOperationalHandlers({
      documents: loadSpecDocuments(),
      database: services.db,
      redis: services.redis,
      readinessTimeoutMs: services.config.readinessTimeoutMs,
      signIn: { oidcStartPath: services.oidc ? operationPath('startOidcSignIn', {}) : null, devLoginEnabled: services.config.devLoginEnabled },
    }),
    ...metricsHandler(services),
  };
}

/** GET /metrics; with metrics off its route is absent (app.ts), and so is this registry. */
function metricsHandler({ metrics, config }: Services): ReturnType<typeof createMetricsHandler> {
  if (metrics) return createMetricsHandler({ metrics, token: config.metrics.token });
  return {
    getMetrics: () => {
      throw new Error('GET /metrics is not registered with METRICS_ENABLED=false');
    },
  };
}
