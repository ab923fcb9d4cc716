// Where the rate limit counts (rateLimit.ts): a fixed window per client key that starts at the
// key's first request. In-memory, each instance counts alone; the Redis store
// (redisRateLimitStore.ts) counts across instances.

/** A request counted against its key's window. */
export interface RateLimitHit {
  /** over the limit: answer 429 */
  limited: boolean;
  /** requests left in the window */
  remaining: number;
  /** until the window ends */
  resetMs: number;
}

export interface RateLimitStore {
  hit(key: string): Promise<RateLimitHit>;
}

interface Window {
  startedAt: number;
  count: number;
}

export function createMemoryRateLimitStore(options: { limit: number; windowSeconds: number; clock: () => number }): RateLimitStore {
  const windows = new Map<string, Window>();
  const windowMs = options.windowSeconds * 1000;
  let lastSweep = 0;
  return {
    hit(key) {
      const now = options.clock();
      if (now - lastSweep > windowMs) {
        for (const [k, w] of windows) if (now - w.startedAt >= windowMs) windows.delete(k);
        lastSweep = now;
      }
      let window = windows.get(key);
      if (!window || now - window.startedAt >= windowMs) {
        window = { startedAt: now, count: 0 };
        windows.set(key, window);
      }
      window.count++;
      return Promise.resolve({
        limited: window.count > options.limit,
        remaining: Math.max(0, options.limit - window.count),
        resetMs: Math.max(0, window.startedAt + windowMs - now),
      });
    },
  };
}
