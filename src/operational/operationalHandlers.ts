// Handlers of the Operations tag: the probes, and the documents describing the API (documentHandlers.ts).
import type { Handlers } from '../../generated/operations.js';
import { storageFailureCode, storageUnavailableReason } from '../db/storageFailure.js';
import { AppError } from '../kernel/appError.js';
import type { DatabasePort } from '../db/databasePort.js';
import { boundedReadiness, type ReadinessProbe } from './boundedReadiness.js';
import type { RequestContext } from '../kernel/requestContext.js';
import { createDocumentHandlers, type DocumentHandlers } from './documentHandlers.js';
import { noSignIn, type SignInOffer } from './signInSection.js';
import type { SpecDocuments } from './specDocuments.js';

type OperationalHandlers = Pick<Handlers<RequestContext>, 'getHealth' | 'getReadiness'> & DocumentHandlers;

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
  const readiness = boundedReadiness(readinessProbes(database, redis ?? null, readinessTimeoutMs), readinessTimeoutMs);
  return {
    ...createDocumentHandlers({ documents, signIn }),
    getHealth: () => ({ status: 200, body: { status: 'UP' } }),
    async getReadiness(_request, ctx) {
      const verdict = await readiness();
      if (!verdict.ready) {
        ctx.log.warn({ err: verdict.error, code: storageFailureCode(verdict.error) }, `readiness: ${verdict.message}`);
        throw new AppError('COMMON503', verdict.message);
      }
      return { status: 200, body: { status: 'UP' } };
    },
  };
}
