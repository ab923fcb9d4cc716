// Redis for tests: `describeOnRedis` runs a suite only when Redis answered the global setup
// (test/support/redisGlobalSetup.ts prints the one line saying why it was skipped), and
// `freshRedisSpace()` gives a suite a key prefix of its own in a database of its choosing, whose
// keys `drop()` deletes; `redisPlanLogOn()` is an instance's plan log on connections of its own.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, inject } from 'vitest';
import { createRedisPlanLog, type RedisPlanLog, type RedisPlanLogOptions } from '../../src/delivery/redisPlanLog.js';
import { openRedisConnections } from '../../src/redis/redisConnections.js';

export const redisForTests = inject('redis');

export const describeOnRedis = describe.skipIf(!redisForTests.available);

export interface FreshRedisSpace {
  /** REDIS_URL with the chosen database number */
  url: string;
  keyPrefix: string;
  /** a plain client on that database, for looking at the keys */
  client: Redis;
  drop(): Promise<void>;
}

export async function freshRedisSpace(db = 0): Promise<FreshRedisSpace> {
  if (!redisForTests.available) throw new Error(`Redis is not available: ${redisForTests.reason}`);
  const url = new URL(redisForTests.url);
  url.pathname = `/${db}`;
  const keyPrefix = `test:${randomBytes(4).toString('hex')}:`;
  const client = new Redis(url.toString());
  await client.ping();
  return {
    url: url.toString(),
    keyPrefix,
    client,
    async drop() {
      const keys = await client.keys(`${keyPrefix}*`);
      if (keys.length > 0) await client.del(...keys);
      client.disconnect();
    },
  };
}

/** An instance's Redis plan log on `url`, on connections of its own that its close() closes too. */
export function redisPlanLogOn(url: string, options: Omit<RedisPlanLogOptions, 'connections'>): RedisPlanLog {
  const connections = openRedisConnections({ url, name: options.keyPrefix, onError: () => {} });
  const log = createRedisPlanLog({ ...options, connections });
  return { ...log, close: () => log.close().then(() => connections.close()) };
}
