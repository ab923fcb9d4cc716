// What every request passes through before its route, in order: its span (with tracing on), a
// request id and a child logger (one log line per request), CORS, the answer of a connection taken
// beyond the connection caps, the rate limit per client address, and the body size limit.
import type { Context, Hono, Next } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Config } from '../config/config.js';
import type { Logger } from '../kernel/logger.js';
import { AppError } from '../kernel/appError.js';
import { clientAddressOf } from './clientAddress.js';
import { refuseBeyondCaps, type ConnectionGate } from './connectionLimits.js';
import { corsHeaders } from './corsHeaders.js';
import type { HttpEnv } from './httpEnv.js';
import { rateLimit } from './rateLimit.js';
import type { RateLimitStore } from '../rateLimit/rateLimitStore.js';
import { requestLogging } from './requestLogging.js';
import { requestTracing } from './requestTracing.js';

/**
 * `rateLimitStore`: where the rate limit counts (default: this instance's memory); `onRateLimited`:
 * told of each 429; `connections`: the server's connection caps (none: requests without a socket).
 */
export function useMiddlewareStack(
  app: Hono<HttpEnv>,
  config: Config,
  log: Logger,
  rateLimitStore?: RateLimitStore,
  onRateLimited?: () => void,
  connections?: ConnectionGate,
): void {
  // Outermost, so the request's span covers everything and its ids are in every log line.
  if (config.tracing) app.use('*', requestTracing());
  app.use('*', requestLogging(log));
  app.use(
    '*',
    corsHeaders({
      origin: config.corsOrigins.includes('*') ? '*' : config.corsOrigins,
      // traceparent and tracestate: a traced browser client continues its trace here (W3C trace context).
      allowHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'traceparent', 'tracestate'],
      exposeHeaders: ['Location', 'X-Request-Id', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'],
      maxAge: 600,
    }),
  );
  // Before the rate limit: a refused connection costs no count of it.
  if (connections) app.use('*', refuseBeyondCaps(connections));
  if (config.rateLimitPerWindow > 0) {
    app.use(
      '*',
      rateLimit({
        limit: config.rateLimitPerWindow,
        windowSeconds: config.rateLimitWindowSeconds,
        store: rateLimitStore,
        onLimited: onRateLimited,
        clientKey: clientAddressOf(config.trustProxyHops),
      }),
    );
  }
  const limitBody = bodyLimit({
    maxSize: config.bodyLimitBytes,
    onError: () => {
      throw new AppError('COMMON413', `The request body is larger than ${config.bodyLimitBytes} bytes.`);
    },
  });
  // GET and HEAD carry no body; skipping them also keeps node-server from building a full fetch
  // Request (the limiter reads `body`), which cost about a tenth of a list request.
  app.use('*', (c: Context<HttpEnv, string>, next: Next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limitBody(c, next)));
}
