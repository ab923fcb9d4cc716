// The rate limit of one instance: the rate-limit store contract (rateLimitStoreContract.ts).
import { describe } from 'vitest';
import { createMemoryRateLimitStore } from '../../src/rateLimit/rateLimitStore.memory.js';
import { rateLimitStoreContract } from './rateLimitStoreContract.js';

describe('the rate limit in memory', () => {
  rateLimitStoreContract((limit) => Promise.resolve({ store: createMemoryRateLimitStore(limit), done: () => Promise.resolve() }));
});
