// Where the rate limits count (http/rateLimit.ts, the chat message limit): a fixed window per key
// that starts at the key's first hit, counted by rate-limiter-flexible. In memory each instance
// counts alone (rateLimitStore.memory.ts); in Redis every instance counts together
// (rateLimitStore.redis.ts). Both count by the host's clock, not the service's clock port.

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

/** What rate-limiter-flexible answers a consume with (RateLimiterRes), as far as a hit needs it. */
interface Consumed {
  remainingPoints: number;
  msBeforeNext: number;
}

const isConsumed = (value: unknown): value is Consumed =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Consumed).remainingPoints === 'number' &&
  typeof (value as Consumed).msBeforeNext === 'number';

/** The hit of a rate-limiter-flexible consume: over the limit is a rejection with the counts; any other rejection is a failure. */
export async function hitOf(consume: Promise<unknown>): Promise<RateLimitHit> {
  const [result, limited] = await consume.then(
    (value) => [value, false] as const,
    (rejection: unknown) => {
      if (!isConsumed(rejection)) throw rejection;
      return [rejection, true] as const;
    },
  );
  if (!isConsumed(result)) throw new Error(`not an answer of the rate limiter: ${String(result)}`);
  return { limited, remaining: Math.max(0, result.remainingPoints), resetMs: Math.max(0, result.msBeforeNext) };
}
