// One Redis, two PostgreSQL databases (a Redis that outlived its database, or one shared by two
// deployments): both databases number their first plan 1, yet a late subscriber of one never
// replays the other's log, because the Redis keys carry the database's identity.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshPostgresDatabase, type FreshPostgresDatabase } from '../support/postgres.js';
import { describeOnRedis, freshRedisSpace, type FreshRedisSpace } from '../support/redis.js';
import { connectStomp, wsUrl, type ReceivedMessage } from '../support/stompTestClient.js';
import { busanTrip } from '../support/testApp.js';
import { startTestServer, type TestServer } from '../support/testServer.js';

const REDIS_DB = 10;
const isEnd = (m: ReceivedMessage) => (m.body as { messageStreamType?: string } | undefined)?.messageStreamType === 'COMPLETED';

describeOnRedis('Redis keys carry the database identity', () => {
  let databases: FreshPostgresDatabase[] = [];
  let space: FreshRedisSpace;
  let servers: TestServer[] = [];

  beforeAll(async () => {
    databases = await Promise.all([freshPostgresDatabase({ migrated: true }), freshPostgresDatabase({ migrated: true })]);
    space = await freshRedisSpace(REDIS_DB);
    await space.client.flushdb();
    servers = await Promise.all(databases.map((database) => startTestServer({ DATABASE_URL: database.url, REDIS_URL: space.url, PLANNER_DELAY_MS: '1' })));
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await space?.client.flushdb();
    await space?.drop();
    await Promise.all(databases.map((database) => database.drop()));
  });

  it("a plan of one database never replays the log of the other database's plan with the same id", async () => {
    const [first, second] = servers as [TestServer, TestServer];
    const plans = [];
    for (const server of servers) {
      const { accessToken: token } = await server.signIn('same-ids@example.com');
      const plan = (await server.request<{ data: { tripPlanId: number; chatRoomId: number } }>('POST', '/api/v1/trips', { token, body: busanTrip })).body.data;
      plans.push({ token, ...plan });
    }
    const [ofFirst, ofSecond] = plans as [(typeof plans)[0], (typeof plans)[0]];
    expect(ofSecond.tripPlanId).toBe(ofFirst.tripPlanId);

    const watcher = await connectStomp(wsUrl(first.url), ofFirst.token);
    await watcher.subscribe(`/user/sub/chat/${ofFirst.chatRoomId}`);
    expect((await first.request('POST', `/api/v1/trips/${ofFirst.tripPlanId}`, { token: ofFirst.token })).status).toBe(200);
    await watcher.waitFor(isEnd, 30_000);
    await watcher.disconnect();

    const late = await connectStomp(wsUrl(second.url), ofSecond.token);
    expect(await late.subscribeReplaying(`/user/sub/schedule/${ofSecond.tripPlanId}`, { 'x-replay': 'all' })).toMatchObject({ recovered: 'true' });
    expect(await late.subscribeReplaying(`/user/sub/chat/${ofSecond.chatRoomId}`, { 'x-replay': 'all' })).toMatchObject({ recovered: 'true' });
    expect(late.messages).toEqual([]);
    await late.disconnect();
  });
});
