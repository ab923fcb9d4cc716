// Gives every request an id (X-Request-Id: the client's when it is a valid RequestId of the spec,
// else a generated one, as components.parameters.RequestId of openapi.yaml says: an invalid id is
// replaced, never echoed and never an error) and a child logger, made only when something of the
// request is logged at an enabled level, and writes one JSON line per request when it ends (at
// info); with tracing on, its lines carry the trace and span id of the request's span.
import crypto from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { schemaValidators } from '../../generated/validators.js';
import type { Logger } from '../kernel/logger.js';
import type { HttpEnv } from './httpEnv.js';
import { withResponseHeaders } from './responseHeaders.js';
import { lazyChildLogger } from '../kernel/lazyChildLogger.js';
import { traceIds } from '../kernel/traceContext.js';

const isRequestId = schemaValidators.openapi.RequestId;

export function requestLogging(log: Logger, clock: () => number = () => performance.now()): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming !== undefined && isRequestId(incoming) ? incoming : crypto.randomUUID();
    // With tracing on, requestTracing.ts runs first: its span is the active one here (read now, not
    // when the child is made: by then another span may be the active one).
    const ids = traceIds();
    const requestLog = lazyChildLogger(log, () => ({ requestId, ...ids }));
    c.set('requestId', requestId);
    c.set('log', requestLog);
    c.set('route', undefined);
    const started = clock();
    await withResponseHeaders(c, { 'X-Request-Id': requestId }, next);
    if (!log.isLevelEnabled('info')) return;
    requestLog.info(
      { method: c.req.method, path: c.req.path, status: c.res.status, operationId: c.get('route')?.operationId, ms: Math.round((clock() - started) * 10) / 10 },
      'request',
    );
  };
}
