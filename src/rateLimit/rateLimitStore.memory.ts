// The rate limit of one instance: rate-limiter-flexible's memory limiter, `limit` hits per key in a
// fixed window of `windowSeconds` from the key's first hit (a key is forgotten when its window ends).
// Imported from its own file: the package's index loads every store it has (Redis, Mongo, the
// cluster, ...), several times what a start without REDIS_URL otherwise spends on this.
import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import { hitOf, type RateLimitStore } from './rateLimitStore.js';

export function createMemoryRateLimitStore({ limit, windowSeconds }: { limit: number; windowSeconds: number }): RateLimitStore {
  const limiter = new RateLimiterMemory({ points: limit, duration: windowSeconds });
  return { hit: (key) => hitOf(limiter.consume(key)) };
}
