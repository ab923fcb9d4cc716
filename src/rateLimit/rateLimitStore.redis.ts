// Limits counted across instances (REDIS_URL): rate-limiter-flexible's Redis limiter, a fixed
// window per key counted atomically in Redis, so N instances together allow exactly the limit. It
// runs on the instance's shared command connection (redis/redisConnections.ts), and every limit of
// the instance uses it (the HTTP rate limit, the chat message limit); keys are in the database
// REDIS_URL names. When Redis is not connected, fails, or has not answered within HIT_TIMEOUT_MS,
// an in-memory limiter answers instead (the insurance): it cannot see the other instances, so it
// allows limit / instances each.
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { RedisConnections } from '../redis/redisConnections.js';
import { createMemoryRateLimitStore } from './rateLimitStore.memory.js';
import { hitOf, type RateLimitStore } from './rateLimitStore.js';

/** How long a hit waits for Redis before the insurance answers: a stalled Redis never stalls a request. */
const HIT_TIMEOUT_MS = 500;

export interface RedisRateLimitsOptions {
  connections: Pick<RedisConnections, 'commands'>;
  /** how many instances share each limit (the insurance's share is limit / instances) */
  instances: number;
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
  /** a store counting `limit` in Redis */
  store(limit: RedisLimit): RateLimitStore;
}

export function createRedisRateLimits({ connections, instances }: RedisRateLimitsOptions): RedisRateLimits {
  const redis = connections.commands;
  const connected = redis.status === 'ready' ? Promise.resolve() : new Promise<void>((resolve) => redis.once('ready', () => resolve()));
  return {
    connected,
    isConnected: () => redis.status === 'ready',
    store({ limit, windowSeconds, keyPrefix = '' }) {
      const insurance = createMemoryRateLimitStore({ limit: Math.max(1, Math.floor(limit / instances)), windowSeconds });
      // Not ready: rejected at once (the command would wait in the connection's queue).
      const limiter = new RateLimiterRedis({
        storeClient: redis,
        points: limit,
        duration: windowSeconds,
        keyPrefix: `${keyPrefix}rlflx`,
        rejectIfRedisNotReady: true,
      });
      return {
        // Over the limit is a hit; a failure of Redis, or an answer too late, is the insurance's to count.
        hit: (key) => withinTimeout(hitOf(limiter.consume(key))).catch(() => insurance.hit(key)),
      };
    },
  };
}

function withinTimeout<T>(answer: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not count the hit within ${HIT_TIMEOUT_MS} ms`)), HIT_TIMEOUT_MS);
  });
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}
