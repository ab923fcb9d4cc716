// GET /metrics (openapi.yaml, getMetrics): the registry of this instance in the Prometheus text
// format. With METRICS_TOKEN the request must carry it as a bearer token (401 AUTH028), compared in
// constant time so the answer's timing tells nothing about the token. Whether the route exists at
// all (a token, or a loopback HOST with no proxy in front) is app.ts's business: an absent route
// answers 404.
import crypto from 'node:crypto';
import type { Handlers } from '../../generated/operations.js';
import { AppError } from '../kernel/appError.js';
import type { RequestContext } from '../kernel/requestContext.js';
import type { Metrics } from '../metrics/metricsRegistry.js';

/** Whether `authorization` is `Bearer <token>`; hashes first, so the comparison takes the same time for any length. */
function carriesToken(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
  const digest = (text: string) => crypto.createHash('sha256').update(text).digest();
  return crypto.timingSafeEqual(digest(match?.[1] ?? ''), digest(token)) && match !== null;
}

export function createMetricsHandler({ metrics, token }: { metrics: Metrics; token: string | null }): Pick<Handlers<RequestContext>, 'getMetrics'> {
  return {
    async getMetrics(_request, ctx) {
      if (token !== null && !carriesToken(ctx.header('authorization'), token)) throw new AppError('AUTH028');
      // Sent as openapi.yaml's media type, text/plain; version=0.0.4, with the router's charset=utf-8.
      return { status: 200, body: await metrics.registry.metrics() };
    },
  };
}
