// The rate limit counted across instances (REDIS_URL): rate-limiter-flexible's Redis limiter, a
// fixed window per client key counted atomically in Redis, so N instances together allow exactly
// the limit. When Redis fails or is not connected, an in-memory limiter answers instead (the
// library's insurance): it cannot see the other instances, so it allows limit / instances each.
// Keys are in the database REDIS_URL names.
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitHit, RateLimitStore } from './rateLimitStore.js';

export interface RedisRateLimitStoreOptions {
  /** redis://host:port/db */
  url: string;
  limit: number;
  windowSeconds: number;
  /** how many instances share the limit (the insurance's share is limit / instances) */
  instances: number;
  /** the start of every key (tests give each suite its own) */
  keyPrefix?: string;
  onRedisError: (error: unknown) => void;
  /** told each time one of its connections tries to reconnect (metrics) */
  onReconnecting?: () => void;
}

export interface RedisRateLimitStore extends RateLimitStore {
  /** resolves once Redis is connected (until then, and whenever it is away, the insurance counts) */
  readonly connected: Promise<void>;
  close(): Promise<void>;
}

export function createRedisRateLimitStore(options: RedisRateLimitStoreOptions): RedisRateLimitStore {
  // No offline queue: while Redis is away a request must be counted by the insurance now, not wait.
  const redis = new Redis(options.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500 });
  redis.on('error', options.onRedisError);
  if (options.onReconnecting) redis.on('reconnecting', options.onReconnecting);
  const connected = new Promise<void>((resolve) => redis.once('ready', () => resolve()));
  const insuranceLimiter = new RateLimiterMemory({ points: Math.max(1, Math.floor(options.limit / options.instances)), duration: options.windowSeconds });
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    points: options.limit,
    duration: options.windowSeconds,
    keyPrefix: `${options.keyPrefix ?? ''}rlflx`,
    insuranceLimiter,
    rejectIfRedisNotReady: true,
  });
  const hitOf = (result: RateLimiterRes, limited: boolean): RateLimitHit => ({
    limited,
    remaining: Math.max(0, result.remainingPoints),
    resetMs: Math.max(0, result.msBeforeNext),
  });
  return {
    connected,
    async hit(key) {
      try {
        return hitOf(await limiter.consume(key), false);
      } catch (rejection) {
        // Over the limit is a rejection with the counts; anything else is a failure of both limiters.
        if (rejection instanceof RateLimiterRes) return hitOf(rejection, true);
        throw rejection;
      }
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
