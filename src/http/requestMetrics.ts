// Counts every HTTP request and its duration by the operation of openapi.yaml it reached
// (http_server_request_duration_seconds, http_server_requests_total). The outermost middleware, so
// a 429 of the rate limit or a 413 of the body limit is counted too: such a request never reached
// its route, so its operation is looked up here (only then); a path that is no operation is
// "unmatched"; a method that is not a known one is `_OTHER` (requestMethod.ts), so no client can
// add series. Per request this costs the clock twice and the label values, nothing else.
import type { MiddlewareHandler } from 'hono';
import type { OperationId } from '../../generated/operations.js';
import type { Metrics } from '../metrics/metricsRegistry.js';
import type { HttpEnv } from './httpEnv.js';
import { knownMethod } from './requestMethod.js';
import { routeFor } from './operationRouter.js';

export function requestMetrics(metrics: Metrics, disabled: ReadonlySet<OperationId>): MiddlewareHandler<HttpEnv> {
  const { httpRequestDuration, httpRequests } = metrics;
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const seconds = (performance.now() - started) / 1000;
      const method = c.req.method;
      const route = c.get('route') ?? routeFor(method, c.req.path, disabled);
      const operationId = route?.operationId ?? 'unmatched';
      // A request that failed past every error handler (none should) is answered 500 by the server.
      const status = c.finalized ? c.res.status : 500;
      httpRequestDuration.observe(
        { http_request_method: knownMethod(method), http_route: route?.path ?? '', http_response_status_code: status, operation_id: operationId },
        seconds,
      );
      httpRequests.inc({ operation_id: operationId, http_response_status_code: status });
    }
  };
}
