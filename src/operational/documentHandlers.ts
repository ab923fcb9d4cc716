// The operations that describe the API: the landing page, the two documents and the docs pages
// (Swagger UI, the AsyncAPI page, the live metrics dashboard, the playground). They need nothing but the specs, so
// the mock (tools/mock) serves the very same answers as the service.
import type { Handlers } from '../../generated/operations.js';
import { preferredMediaType } from '../http/mediaType.js';
import type { RequestContext } from '../kernel/requestContext.js';
import { renderAsyncapiPage } from './asyncapiPage.js';
import { renderDashboardPage } from './dashboardPage.js';
import { apiInfoOf, landingPageData, renderLandingPage } from './landingPage.js';
import { renderPlaygroundPage } from './playgroundPage.js';
import { servedOpenapi } from './servedOpenapi.js';
import { noSignIn, type SignInOffer } from './signInSection.js';
import type { SpecDocuments } from './specDocuments.js';
import { swaggerUiPage } from './swaggerUi.js';

export type DocumentHandlers = Pick<
  Handlers<RequestContext>,
  'getLandingPage' | 'getOpenApiDocument' | 'getAsyncApiDocument' | 'getApiDocs' | 'getAsyncApiDocs' | 'getMetricsDashboard' | 'getPlayground'
>;

/** `make()`'s value, made on the first call. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

export function createDocumentHandlers({
  documents,
  signIn = noSignIn,
}: {
  documents: SpecDocuments;
  /** what the landing page and the playground offer to sign in with: dev-login, the identity provider */
  signIn?: SignInOffer;
}): DocumentHandlers {
  // Built on first request, not at start: each parses a spec (tens of milliseconds a document), and
  // a service is ready before anybody asks for its documentation.
  const asyncapiPage = once(() => renderAsyncapiPage(documents.asyncapi));
  const dashboardPage = renderDashboardPage({ source: 'this server', withNavBar: true });
  const landing = once(() => {
    const info = apiInfoOf(documents.openapi);
    return { data: landingPageData(info), html: renderLandingPage(info, signIn) };
  });
  const playgroundPage = once(() => renderPlaygroundPage(documents, signIn));
  const openapiFor = once(() => servedOpenapi(documents.openapiYaml));
  return {
    getLandingPage: (_request, ctx) =>
      preferredMediaType(ctx.accept, ['application/json', 'text/html']) === 'text/html'
        ? { status: 200, contentType: 'text/html', body: landing().html, headers: { Vary: 'Accept' } }
        : { status: 200, body: landing().data, headers: { Vary: 'Accept' } },
    getOpenApiDocument: (_request, ctx) => ({ status: 200, body: openapiFor()(ctx.origin()) }),
    getAsyncApiDocument: () => ({ status: 200, body: documents.asyncapiYaml }),
    getApiDocs: () => ({ status: 200, body: swaggerUiPage }),
    getAsyncApiDocs: () => ({ status: 200, body: asyncapiPage() }),
    getMetricsDashboard: () => ({ status: 200, body: dashboardPage }),
    getPlayground: () => ({ status: 200, body: playgroundPage() }),
  };
}
