// Handlers of the Operations tag: probes and the documents describing the API.
import type { Handlers } from '../../generated/operations.js';
import { AppError } from '../http/appError.js';
import type { RequestContext } from '../services.js';
import { renderAsyncapiPage } from './asyncapiPage.js';
import { servedOpenapi } from './servedOpenapi.js';
import type { SpecDocuments } from './specDocuments.js';
import { swaggerUiPage } from './swaggerUi.js';

type OperationalHandlers = Pick<
  Handlers<RequestContext>,
  'getHealth' | 'getReadiness' | 'getOpenApiDocument' | 'getAsyncApiDocument' | 'getApiDocs' | 'getAsyncApiDocs'
>;

export function createOperationalHandlers(documents: SpecDocuments): OperationalHandlers {
  const asyncapiPage = renderAsyncapiPage(documents.asyncapi);
  const openapiFor = servedOpenapi(documents.openapiYaml);
  return {
    getHealth: () => ({ status: 200, body: { status: 'UP' } }),
    getReadiness(_request, ctx) {
      try {
        ctx.services.database.sqlite.prepare('SELECT 1').get();
      } catch (error) {
        ctx.log.warn({ err: error }, 'readiness: database not reachable');
        throw new AppError('COMMON503', 'The database is not reachable.');
      }
      return { status: 200, body: { status: 'UP' } };
    },
    getOpenApiDocument: (_request, ctx) => ({ status: 200, body: openapiFor(ctx.origin()) }),
    getAsyncApiDocument: () => ({ status: 200, body: documents.asyncapiYaml }),
    getApiDocs: () => ({ status: 200, body: swaggerUiPage }),
    getAsyncApiDocs: () => ({ status: 200, body: asyncapiPage }),
  };
}
