// vitest global setup: does Redis answer? Once per `vitest run`, before any test file.
// - It answers: tests get its URL (test/support/redis.ts gives each suite its own key prefix).
// - It does not: the Redis tests are skipped and one line says why, so `npm test` on a machine
//   without Redis still passes; with CI=true (set by .ci/run) the run fails instead.
import { Redis } from 'ioredis';
import type { TestProject } from 'vitest/node';

export type RedisForTests = { available: true; url: string } | { available: false; reason: string };

declare module 'vitest' {
  export interface ProvidedContext {
    redis: RedisForTests;
  }
}

/** The local Redis of our machines; TEST_REDIS_URL points the tests elsewhere. */
export const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

async function whyRedisDoesNotAnswer(url: string): Promise<string | null> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // The connection's own error (ECONNREFUSED ...) says more than the rejected connect().
  let connectionError: Error | null = null;
  client.on('error', (error: Error) => (connectionError ??= error));
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (error) {
    return (connectionError ?? (error as Error)).message || String(error);
  } finally {
    client.disconnect();
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const where = new URL(redisUrl).host;
  const reason = await whyRedisDoesNotAnswer(redisUrl);
  if (reason !== null) {
    if (process.env.CI === 'true') throw new Error(`Redis does not answer at ${where} (${reason}); CI requires it: .ci/run starts it, or set TEST_REDIS_URL`);
    console.warn(`Redis tests skipped: nothing answers at ${where} (${reason}); start Redis there or set TEST_REDIS_URL`);
    project.provide('redis', { available: false, reason });
    return;
  }
  project.provide('redis', { available: true, url: redisUrl });
}
