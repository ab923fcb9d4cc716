// The documents and docs pages in the mock are the service's own, answered by its handlers through
// its router: /openapi.yaml (the same bytes, its server pointing at the address the request reached,
// as the service does), /asyncapi.yaml, the landing page, Swagger UI at /docs, the AsyncAPI page,
// the metrics dashboard and the playground, with their assets. A generator, Swagger UI's "Try it
// out" or the conformance suite pointed at the mock reads the real contract and calls the mock.
import type { Hono } from 'hono';
import type { OperationId } from '../../generated/operations.js';
import {
  createDocumentHandlers,
  createResponseChecker,
  loadSpecDocuments,
  registerAsyncapiAssets,
  registerDashboardAssets,
  registerOperationsOf,
  registerPlaygroundAssets,
  registerSwaggerUiAssets,
  type Config,
  type HttpEnv,
  type Logger,
} from '../../src/index.js';
import type { MockAuth } from './mockAuth.js';

/** Registers the documents, the pages and their assets; returns the operations they answer. */
export function registerServiceDocuments(app: Hono<HttpEnv>, deps: { config: Config; log: Logger; auth: MockAuth }): ReadonlySet<OperationId> {
  registerSwaggerUiAssets(app);
  registerAsyncapiAssets(app);
  registerDashboardAssets(app);
  registerPlaygroundAssets(app);
  // The landing page and the playground offer dev-login, which the mock answers with the spec's
  // token pair (a token it accepts); the mock has no OpenID Connect provider.
  const handlers = createDocumentHandlers({ documents: loadSpecDocuments(), signIn: { oidcStartPath: null, devLoginEnabled: true } });
  registerOperationsOf(app, handlers, {
    // The documents are public (security: []): nobody is asked for a token.
    authenticate: (authorization) => Promise.resolve().then(() => deps.auth.authenticate(authorization)),
    checker: createResponseChecker(deps.config.responseValidation, deps.log),
    disabled: new Set(),
  });
  return new Set(Object.keys(handlers) as OperationId[]);
}
