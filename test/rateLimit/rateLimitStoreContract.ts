// What every rate-limit store does, wherever it counts (rateLimitStore.memory.ts,
// rateLimitStore.redis.ts): `limit` hits per key in a fixed window that starts at the key's first
// hit, then refusals that say how long until the window ends; keys counted apart; a new window once
// it ended. Each implementation's test file runs these.
import { expect, it } from 'vitest';
import type { RateLimitStore } from '../../src/rateLimit/rateLimitStore.js';

export type MakeStore = (limit: { limit: number; windowSeconds: number }) => Promise<{ store: RateLimitStore; done(): Promise<void> }>;

export function rateLimitStoreContract(makeStore: MakeStore): void {
  const withStore = async (limit: { limit: number; windowSeconds: number }, body: (store: RateLimitStore) => Promise<void>) => {
    const made = await makeStore(limit);
    try {
      await body(made.store);
    } finally {
      await made.done();
    }
  };

  it('allows the limit per key, then refuses and says how long until the window ends; another key counts apart', () =>
    withStore({ limit: 3, windowSeconds: 60 }, async (store) => {
      const hits = [];
      for (let i = 0; i < 4; i++) hits.push(await store.hit('203.0.113.7'));
      expect(hits.map((h) => [h.limited, h.remaining])).toEqual([
        [false, 2],
        [false, 1],
        [false, 0],
        [true, 0],
      ]);
      // The first hit starts the window: its reset is the whole window.
      expect(hits[0]!.resetMs).toBeGreaterThan(59_000);
      expect(hits[0]!.resetMs).toBeLessThanOrEqual(60_000);
      expect(hits[3]!.resetMs).toBeGreaterThan(0);
      expect(hits[3]!.resetMs).toBeLessThanOrEqual(hits[0]!.resetMs);
      expect(await store.hit('198.51.100.1')).toMatchObject({ limited: false, remaining: 2 });
    }));

  it('takes hits again once the window ended, in a window that starts then', () =>
    withStore({ limit: 1, windowSeconds: 1 }, async (store) => {
      const first = await store.hit('client');
      expect(first).toMatchObject({ limited: false, remaining: 0 });
      expect((await store.hit('client')).limited).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, first.resetMs + 50));
      const next = await store.hit('client');
      expect(next).toMatchObject({ limited: false, remaining: 0 });
      expect(next.resetMs).toBeGreaterThan(900);
    }));
}
