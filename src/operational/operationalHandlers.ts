// Handlers of the Operations tag: probes and the documents describing the API.
import type { Handlers } from '../../generated/operations.js';
import { storageFailureCode, storageUnavailableReason } from '../db/storageFailure.js';
import { AppError } from '../kernel/appError.js';
import type { DatabasePort } from '../db/databasePort.js';
import { boundedReadiness, type ReadinessProbe } from './boundedReadiness.js';
import type { RequestContext } from '../kernel/requestContext.js';
import { preferredMediaType } from '../http/mediaType.js';
import { renderAsyncapiPage } from './asyncapiPage.js';
import { renderDashboardPage } from './dashboardPage.js';
import { apiInfoOf, landingPageData, renderLandingPage } from './landingPage.js';
import { renderPlaygroundPage } from './playgroundPage.js';
import { servedOpenapi } from './servedOpenapi.js';
import { noSignIn, type SignInOffer } from './signInSection.js';
import type { SpecDocuments } from './specDocuments.js';
import { swaggerUiPage } from './swaggerUi.js';

/** `make()`'s value, made on the first call. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

type OperationalHandlers = Pick<
  Handlers<RequestContext>,
  | 'getLandingPage'
  | 'getHealth'
  | 'getReadiness'
  | 'getOpenApiDocument'
  | 'getAsyncApiDocument'
  | 'getApiDocs'
  | 'getAsyncApiDocs'
  | 'getMetricsDashboard'
  | 'getPlayground'
>;

/** What /readyz asks: the database, and Redis with REDIS_URL; each failure in the words of the documented 503. */
function readinessProbes(database: DatabasePort, redis: { ready(): Promise<void> } | null, timeoutMs: number): ReadinessProbe[] {
  const probes: ReadinessProbe[] = [
    {
      run: () => database.readiness.probe({ timeoutMs }),
      failure(error) {
        if (!storageFailureCode(error)) return 'The database is not reachable.';
        // SQLite: the write probe failed ("does not take writes"); PostgreSQL: the server did not answer.
        return `The database ${database.readiness.failing} (${storageUnavailableReason(error)}).`;
      },
      tooSlow: (ms) => `The database did not answer within ${ms} ms (READINESS_TIMEOUT_MS).`,
    },
  ];
  if (redis) {
    probes.push({
      run: () => redis.ready(),
      failure: (error) => `Redis (REDIS_URL) does not answer (${error instanceof Error ? error.message : String(error)}).`,
      tooSlow: (ms) => `Redis (REDIS_URL) did not answer within ${ms} ms (READINESS_TIMEOUT_MS).`,
    });
  }
  return probes;
}

export function createOperationalHandlers({
  documents,
  database,
  redis,
  readinessTimeoutMs,
  signIn = noSignIn,
}: {
  documents: SpecDocuments;
  database: DatabasePort;
  /** with REDIS_URL: resolves when Redis answers */
  redis?: { ready(): Promise<void> } | null;
  /** READINESS_TIMEOUT_MS: /readyz answers 503 when the probes have not answered by then */
  readinessTimeoutMs: number;
  /** what the landing page and the playground offer to sign in with: dev-login, the identity provider */
  signIn?: SignInOffer;
}): OperationalHandlers {
  // Built on first request, not at start: each parses a spec (tens of milliseconds a document), and
  // a service is ready before anybody asks for its documentation.
  const asyncapiPage = once(() => renderAsyncapiPage(documents.asyncapi));
  const dashboardPage = renderDashboardPage({ source: 'this server', withNavBar: true });
  const landing = once(() => {
    const info = apiInfoOf(documents.openapi);
    return { data: landingPageData(info), html: renderLandingPage(info, signIn) };
  });
  const playgroundPage = once(() => renderPlaygroundPage(documents.openapi, signIn));
  const openapiFor = once(() => servedOpenapi(documents.openapiYaml));
  const readiness = boundedReadiness(readinessProbes(database, redis ?? null, readinessTimeoutMs), readinessTimeoutMs);
  return {
    getLandingPage: (_request, ctx) =>
      preferredMediaType(ctx.accept, ['application/json', 'text/html']) === 'text/html'
        ? { status: 200, contentType: 'text/html', body: landing().html, headers: { Vary: 'Accept' } }
        : { status: 200, body: landing().data, headers: { Vary: 'Accept' } },
    getHealth: () => ({ status: 200, body: { status: 'UP' } }),
    async getReadiness(_request, ctx) {
      const verdict = await readiness();
      if (!verdict.ready) {
        ctx.log.warn({ err: verdict.error, code: storageFailureCode(verdict.error) }, `readiness: ${verdict.message}`);
        throw new AppError('COMMON503', verdict.message);
      }
      return { status: 200, body: { status: 'UP' } };
    },
    getOpenApiDocument: (_request, ctx) => ({ status: 200, body: openapiFor()(ctx.origin()) }),
    getAsyncApiDocument: () => ({ status: 200, body: documents.asyncapiYaml }),
    getApiDocs: () => ({ status: 200, body: swaggerUiPage }),
    getAsyncApiDocs: () => ({ status: 200, body: asyncapiPage() }),
    getMetricsDashboard: () => ({ status: 200, body: dashboardPage }),
    getPlayground: () => ({ status: 200, body: playgroundPage() }),
  };
}
