// Fixed-window rate limiting per client address, with RateLimit-* headers on every response and
// 429 COMMON429 + Retry-After past the limit. In-process state: a distributed deployment replaces
// the store, not the middleware.
import type { MiddlewareHandler } from 'hono';
import { AppError } from './appError.js';
import type { HttpEnv } from './httpEnv.js';

interface Window {
  startedAt: number;
  count: number;
}

export function rateLimit(options: {
  limit: number;
  windowSeconds: number;
  clock: () => number;
  clientKey: (c: Parameters<MiddlewareHandler<HttpEnv>>[0]) => string;
}): MiddlewareHandler<HttpEnv> {
  const windows = new Map<string, Window>();
  const windowMs = options.windowSeconds * 1000;
  let lastSweep = 0;
  return async (c, next) => {
    const now = options.clock();
    if (now - lastSweep > windowMs) {
      for (const [key, w] of windows) if (now - w.startedAt >= windowMs) windows.delete(key);
      lastSweep = now;
    }
    const key = options.clientKey(c);
    let window = windows.get(key);
    if (!window || now - window.startedAt >= windowMs) {
      window = { startedAt: now, count: 0 };
      windows.set(key, window);
    }
    window.count++;
    const reset = Math.max(0, Math.ceil((window.startedAt + windowMs - now) / 1000));
    const headers = {
      'RateLimit-Limit': String(options.limit),
      'RateLimit-Remaining': String(Math.max(0, options.limit - window.count)),
      'RateLimit-Reset': String(reset),
    };
    if (window.count > options.limit) {
      throw new AppError('COMMON429', `Too many requests; retry in ${Math.max(1, reset)} seconds.`, {
        headers: { ...headers, 'Retry-After': String(Math.max(1, reset)) },
      });
    }
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}
