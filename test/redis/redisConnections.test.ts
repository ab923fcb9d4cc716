// An instance with REDIS_URL (on PostgreSQL, which REDIS_URL needs) holds two Redis connections,
// whatever uses Redis (the plan logs, the control bus, both rate limits): one for commands, one for
// Pub/Sub, named after the database they serve (CLIENT LIST).
import { expect, it, vi } from 'vitest';
import { readDatabaseIdentity } from '../../src/db/databaseIdentity.js';
import { cleanUpsAfterEach } from '../support/cleanUps.js';
import { freshPostgresDatabase } from '../support/postgres.js';
import { describeOnRedis, freshRedisSpace, redisForTests } from '../support/redis.js';

const cleanUps = cleanUpsAfterEach();

describeOnRedis('the Redis connections of an instance', () => {
  it('are two: one for commands, one for Pub/Sub, shared by every part', async () => {
    const database = await freshPostgresDatabase({ migrated: true });
    cleanUps.add(() => database.drop());
    const space = await freshRedisSpace(12);
    cleanUps.add(() => space.drop());
    const redis = new URL(redisForTests.available ? redisForTests.url : 'redis://127.0.0.1:6379');
    const t = await cleanUps.app({
      DATABASE_URL: database.url,
      REDIS_URL: `redis://${redis.host}/12`,
      RATE_LIMIT_PER_MINUTE: '1000',
      CHAT_MESSAGES_PER_MINUTE: '10',
    });
    await vi.waitFor(async () => expect((await t.request('GET', '/readyz')).status).toBe(200), { timeout: 20_000, interval: 50 });
    const name = `rt:${await readDatabaseIdentity(t.app.services.db)}:`;
    const clients = String(await space.client.call('CLIENT', 'LIST'))
      .split('\n')
      .filter((line) => line.includes(` name=${name}`));
    expect(clients.map((line) => /name=(\S+)/.exec(line)?.[1]).sort()).toEqual([`${name}commands`, `${name}subscriber`]);
    // The subscriber holds the control bus's channel (and the plan logs' once followed).
    expect(clients.find((line) => line.includes(`name=${name}subscriber`))).toMatch(/ flags=P /);
  });
});
