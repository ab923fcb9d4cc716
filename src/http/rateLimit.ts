// Fixed-window rate limiting per client address, with RateLimit-* headers on every response and
// 429 COMMON429 + Retry-After past the limit. Where the count is kept is the store's business
// (rateLimit/rateLimitStore.ts: in memory by default, in Redis across instances).
import type { MiddlewareHandler } from 'hono';
import { AppError } from '../kernel/appError.js';
import type { HttpEnv } from './httpEnv.js';
import { withResponseHeaders } from './responseHeaders.js';
import { createMemoryRateLimitStore } from '../rateLimit/rateLimitStore.memory.js';
import type { RateLimitStore } from '../rateLimit/rateLimitStore.js';

export function rateLimit(options: {
  limit: number;
  windowSeconds: number;
  clientKey: (c: Parameters<MiddlewareHandler<HttpEnv>>[0]) => string;
  /** default: this instance's memory */
  store?: RateLimitStore;
  /** told of every request refused (metrics) */
  onLimited?: () => void;
}): MiddlewareHandler<HttpEnv> {
  const store = options.store ?? createMemoryRateLimitStore(options);
  return async (c, next) => {
    const hit = await store.hit(options.clientKey(c));
    const reset = Math.ceil(hit.resetMs / 1000);
    const headers = {
      'RateLimit-Limit': String(options.limit),
      'RateLimit-Remaining': String(hit.remaining),
      'RateLimit-Reset': String(reset),
    };
    if (hit.limited) {
      options.onLimited?.();
      throw new AppError('COMMON429', `Too many requests; retry in ${Math.max(1, reset)} seconds.`, {
        headers: { ...headers, 'Retry-After': String(Math.max(1, reset)) },
      });
    }
    await withResponseHeaders(c, headers, next);
  };
}
