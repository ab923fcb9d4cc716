// Counts every HTTP request and its duration by the operation of openapi.yaml it reached
// (http_server_request_duration_seconds, http_server_requests_total). The outermost middleware, so
// a 429 of the rate limit or a 413 of the body limit is counted too: such a request never reached
// its route, so its operation is looked up here (only then); a path that is no operation is
// "unmatched"; a method that is not a known one is `_OTHER` (requestMethod.ts), so no client can
// add series. Per request this costs the clock twice and two map lookups: the series of each
// (operation or method, status) are bound once (metrics/boundSeries.ts) and kept here.
import type { MiddlewareHandler } from 'hono';
import type { OperationId } from '../../generated/operations.js';
import type { RouteDefinition } from '../../generated/routes.js';
import type { BoundCounterSeries, BoundHistogramSeries } from '../metrics/boundSeries.js';
import type { Metrics } from '../metrics/metricsRegistry.js';
import type { HttpEnv } from './httpEnv.js';
import { knownMethod } from './requestMethod.js';
import { routeFor } from './operationRouter.js';

export interface RequestSeries {
  duration: BoundHistogramSeries;
  requests: BoundCounterSeries;
}

/** The bound series of a request by its method, route (null: no operation) and status, made on first use and kept. */
export function requestSeries(
  metrics: Pick<Metrics, 'httpRequestDuration' | 'httpRequests'>,
): (method: string, route: RouteDefinition | null, status: number) => RequestSeries {
  const { httpRequestDuration, httpRequests } = metrics;
  /** by route (or by method and operation when the method is not the route's own), then status */
  const bound = new Map<RouteDefinition | string, Map<number, RequestSeries>>();
  return (method, route, status) => {
    // A route's own method is the usual case; a HEAD answered by a GET route, or no route, goes by text.
    const key = route !== null && route.method === method ? route : `${knownMethod(method)} ${route?.operationId ?? ''}`;
    let byStatus = bound.get(key);
    if (byStatus === undefined) bound.set(key, (byStatus = new Map<number, RequestSeries>()));
    let series = byStatus.get(status);
    if (series === undefined) {
      const operationId = route?.operationId ?? 'unmatched';
      series = {
        duration: httpRequestDuration.series({
          http_request_method: knownMethod(method),
          http_route: route?.path ?? '',
          http_response_status_code: status,
          operation_id: operationId,
        }),
        requests: httpRequests.series({ operation_id: operationId, http_response_status_code: status }),
      };
      byStatus.set(status, series);
    }
    return series;
  };
}

export function requestMetrics(metrics: Metrics, disabled: ReadonlySet<OperationId>): MiddlewareHandler<HttpEnv> {
  const seriesOf = requestSeries(metrics);
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const seconds = (performance.now() - started) / 1000;
      const method = c.req.method;
      const route = c.get('route') ?? routeFor(method, c.req.path, disabled);
      // A request that failed past every error handler (none should) is answered 500 by the server.
      const status = c.finalized ? c.res.status : 500;
      const series = seriesOf(method, route, status);
      series.duration.observe(seconds);
      series.requests.inc();
    }
  };
}
