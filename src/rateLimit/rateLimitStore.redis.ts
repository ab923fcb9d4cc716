// Limits counted across instances (REDIS_URL): rate-limiter-flexible's Redis limiter, a fixed
// window per key counted atomically in Redis, so N instances together allow exactly the limit.
// When Redis fails or is not connected, an in-memory limiter answers instead (the library's
// insurance): it cannot see the other instances, so it allows limit / instances each. One Redis
// connection serves every limit of an instance (the HTTP rate limit, the chat message limit); keys
// are in the database REDIS_URL names.
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { hitOf, type RateLimitStore } from './rateLimitStore.js';

export interface RedisRateLimitsOptions {
  /** redis://host:port/db */
  url: string;
  /** how many instances share each limit (the insurance's share is limit / instances) */
  instances: number;
  onRedisError: (error: unknown) => void;
  /** told each time its connection tries to reconnect (metrics) */
  onReconnecting?: () => void;
}

/** One limit: `limit` hits per key and window, its keys starting with `keyPrefix`. */
export interface RedisLimit {
  limit: number;
  windowSeconds: number;
  /** the start of every key of this limit (tests give each suite its own) */
  keyPrefix?: string;
}

export interface RedisRateLimits {
  /** resolves once Redis is connected (until then, and whenever it is away, the insurance counts) */
  readonly connected: Promise<void>;
  /** whether Redis is connected now */
  isConnected(): boolean;
  /** a store counting `limit` on this connection */
  store(limit: RedisLimit): RateLimitStore;
  close(): Promise<void>;
}

export function createRedisRateLimits(options: RedisRateLimitsOptions): RedisRateLimits {
  // No offline queue: while Redis is away a hit must be counted by the insurance now, not wait.
  const redis = new Redis(options.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500 });
  redis.on('error', options.onRedisError);
  if (options.onReconnecting) redis.on('reconnecting', options.onReconnecting);
  const connected = new Promise<void>((resolve) => redis.once('ready', () => resolve()));
  return {
    connected,
    isConnected: () => redis.status === 'ready',
    store({ limit, windowSeconds, keyPrefix = '' }) {
      const insuranceLimiter = new RateLimiterMemory({ points: Math.max(1, Math.floor(limit / options.instances)), duration: windowSeconds });
      const limiter = new RateLimiterRedis({
        storeClient: redis,
        points: limit,
        duration: windowSeconds,
        keyPrefix: `${keyPrefix}rlflx`,
        insuranceLimiter,
        rejectIfRedisNotReady: true,
      });
      return { hit: (key) => hitOf(limiter.consume(key)) };
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

export type RedisRateLimitStoreOptions = RedisRateLimitsOptions & RedisLimit;

export interface RedisRateLimitStore extends RateLimitStore {
  readonly connected: Promise<void>;
  close(): Promise<void>;
}

/** One limit on a connection of its own. */
export function createRedisRateLimitStore(options: RedisRateLimitStoreOptions): RedisRateLimitStore {
  const limits = createRedisRateLimits(options);
  const store = limits.store(options);
  return { hit: (key) => store.hit(key), connected: limits.connected, close: () => limits.close() };
}
