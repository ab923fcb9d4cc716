// REDIS_URL wired (docs/operations.md, "Several instances (PostgreSQL + Redis)"): two instances (two apps with
// real HTTP and STOMP servers, as two processes would be) on one PostgreSQL database and one Redis
// database. A generation started over HTTP on A reaches a STOMP client of B in order; a late
// subscriber on B replays it; a logout on A closes B's connections at once; the rate limit is
// shared; and with Redis away /readyz says so while the HTTP that needs only PostgreSQL keeps
// working, until Redis is back.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshPostgresDatabase, type FreshPostgresDatabase } from '../support/postgres.js';
import { openRawStomp } from '../support/rawStompSocket.js';
import { describeOnRedis, freshRedisSpace, redisForTests, type FreshRedisSpace } from '../support/redis.js';
import { connectStomp, wsUrl, type ReceivedMessage, type StompTestClient } from '../support/stompTestClient.js';
import { startTcpProxy, throughProxy, type TcpProxy } from '../support/tcpProxy.js';
import { busanTrip } from '../support/testApp.js';
import { startTestServer, type TestServer } from '../support/testServer.js';

/** Redis database numbers of this file (other suites use 0 with key prefixes). */
const REDIS_DB = 11;
const isEnd = (m: ReceivedMessage) => {
  const body = m.body as { messageStreamType?: string; code?: string } | undefined;
  return body?.messageStreamType === 'COMPLETED' || body?.messageStreamType === 'CANCELLED' || body?.code === 'AI002';
};
const identity = (m: ReceivedMessage) => `${m.destination} ${m.headers['x-epoch']}:${m.headers['x-offset']} ${m.raw}`;

describeOnRedis('two instances on PostgreSQL and Redis (REDIS_URL)', () => {
  let database: FreshPostgresDatabase;
  let space: FreshRedisSpace;
  let proxy: TcpProxy;
  let a: TestServer;
  let b: TestServer;
  const clients: StompTestClient[] = [];

  beforeAll(async () => {
    database = await freshPostgresDatabase({ migrated: true });
    space = await freshRedisSpace(REDIS_DB);
    await space.client.flushdb();
    const redis = new URL(redisForTests.available ? redisForTests.url : 'redis://127.0.0.1:6379');
    proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: throughProxy(`redis://${redis.host}/${REDIS_DB}`, proxy),
      PLANNER_DELAY_MS: '2',
      RATE_LIMIT_PER_MINUTE: '1000',
      STOMP_SESSION_CHECK_MS: '3600000',
    };
    [a, b] = await Promise.all([startTestServer(env), startTestServer(env)]);
  });

  afterAll(async () => {
    proxy?.restore();
    await Promise.all(clients.map((c) => c.disconnect()));
    await Promise.all([a?.stop(), b?.stop()]);
    await proxy?.close();
    await space?.client.flushdb();
    await space?.drop();
    await database?.drop();
  });

  const connect = async (server: TestServer, token: string) => {
    const client = await connectStomp(wsUrl(server.url), token);
    clients.push(client);
    return client;
  };

  it('a generation started over HTTP on A reaches a STOMP client of B in order, and a late subscriber on B replays it', async () => {
    const { accessToken: token } = await a.signIn('fan-out@example.com');
    const plan = (await a.request<{ data: { tripPlanId: number; chatRoomId: number } }>('POST', '/api/v1/trips', { token, body: busanTrip })).body.data;
    const destinations = [`/user/sub/schedule/${plan.tripPlanId}`, `/user/sub/chat/${plan.chatRoomId}`, `/user/sub/errors/${plan.chatRoomId}`];
    const onB = await connect(b, token);
    for (const destination of destinations) await onB.subscribe(destination);
    expect((await a.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token })).status).toBe(200);
    const end = await onB.waitFor(isEnd, 30_000);
    expect((end.body as { messageStreamType?: string }).messageStreamType).toBe('COMPLETED');
    const schedule = onB.messages.filter((m) => m.destination === destinations[0]);
    const chat = onB.messages.filter((m) => m.destination === destinations[1]);
    expect(schedule.map((m) => (m.body as { dailyPlan: { dayNumber: number } }).dailyPlan.dayNumber)).toEqual([1, 2, 3]);
    expect(schedule.map((m) => Number(m.headers['x-offset']))).toEqual([1, 2, 3]);
    expect(chat.map((m) => Number(m.headers['x-offset']))).toEqual(chat.map((_, i) => i + 1));

    const late = await connect(a, token);
    for (const destination of destinations) {
      expect(await late.subscribeReplaying(destination, { 'x-replay': 'all' })).toMatchObject({ recovered: 'true' });
      expect(late.messages.filter((m) => m.destination === destination).map(identity)).toEqual(
        onB.messages.filter((m) => m.destination === destination).map(identity),
      );
    }
  });

  it('a logout on A closes the STOMP connections of that session on B at once with ERROR WS002', async () => {
    const tokens = await a.signIn('logout-everywhere@example.com');
    const onB = await openRawStomp(b.url, tokens.accessToken);
    expect(onB.frames[0]?.command).toBe('CONNECTED');
    expect((await a.request('POST', '/api/v1/auth/logout', { token: tokens.accessToken })).status).toBe(204);
    // The periodic check runs once an hour here: only the control channel can explain the close.
    await onB.closed;
    expect(onB.errorCode()).toBe('WS002');
  });

  it('a refused SEND: its error MESSAGE reaches the sender before the RECEIPT, though it went through Redis', async () => {
    const { accessToken: token } = await a.signIn('refused-send@example.com');
    const plan = (await a.request<{ data: { chatRoomId: number } }>('POST', '/api/v1/trips', { token, body: busanTrip })).body.data;
    const socket = await openRawStomp(b.url, token);
    socket.subscribe('errors', `/user/sub/errors/${plan.chatRoomId}`, 'subscribed');
    await socket.waitFor((f) => f.command === 'RECEIPT' && f.headers['receipt-id'] === 'subscribed');
    for (let i = 0; i < 5; i++) {
      socket.send(`SEND\ndestination:/pub/chat/${plan.chatRoomId}/elsewhere\nreceipt:sent-${i}\ncontent-type:application/json\n\n{"content":"hi"}\0`);
      await socket.waitFor((f) => f.command === 'RECEIPT' && f.headers['receipt-id'] === `sent-${i}`);
    }
    // Each RECEIPT comes right after its own error message.
    const answers = socket.frames.filter((f) => f.command === 'MESSAGE' || (f.command === 'RECEIPT' && f.headers['receipt-id']!.startsWith('sent-')));
    expect(answers.map((f) => (f.command === 'MESSAGE' ? (JSON.parse(f.body) as { code: string }).code : f.headers['receipt-id']))).toEqual(
      [0, 1, 2, 3, 4].flatMap((i) => ['WS005', `sent-${i}`]),
    );
    socket.close();
  });

  it('counts the rate limit of a client address across both instances', async () => {
    // RATE_LIMIT_PER_MINUTE=1000 shared: each request on either instance takes one from the same count.
    const remaining = async (server: TestServer) => Number((await server.request('GET', '/healthz')).headers.get('RateLimit-Remaining'));
    const first = await remaining(a);
    expect([await remaining(b), await remaining(a), await remaining(b)]).toEqual([first - 1, first - 2, first - 3]);
  });

  it('with Redis away, /readyz is 503 and HTTP that needs only PostgreSQL works; once it is back, /readyz is 200 again', async () => {
    const { accessToken: token } = await a.signIn('redis-outage@example.com');
    expect((await a.request('GET', '/readyz')).status).toBe(200);
    proxy.cut();
    const down = await a.request<{ data: { code: string } }>('GET', '/readyz');
    expect([down.status, down.body.data.code]).toEqual([503, 'COMMON503']);
    expect((await a.request('POST', '/api/v1/trips', { token, body: busanTrip })).status).toBe(201);
    expect((await b.request('GET', '/api/v1/trips', { token })).status).toBe(200);
    proxy.restore();
    await expect.poll(async () => (await a.request('GET', '/readyz')).status, { timeout: 20_000, interval: 200 }).toBe(200);
    await expect.poll(async () => (await b.request('GET', '/readyz')).status, { timeout: 20_000, interval: 200 }).toBe(200);
  });

  it('with Redis away, SUBSCRIBE is answered (a replay with x-recovered: false, never an ERROR), and its messages flow once Redis is back', async () => {
    const { accessToken: token } = await a.signIn('subscribe-in-outage@example.com');
    const plan = (await a.request<{ data: { tripPlanId: number; chatRoomId: number } }>('POST', '/api/v1/trips', { token, body: busanTrip })).body.data;
    const onB = await connect(b, token);
    proxy.cut();
    await expect.poll(async () => (await b.request('GET', '/readyz')).status, { timeout: 20_000, interval: 200 }).toBe(503);
    expect(await onB.subscribeReplaying(`/user/sub/schedule/${plan.tripPlanId}`, { 'x-replay': 'all' })).toMatchObject({ recovered: 'false' });
    await onB.subscribe(`/user/sub/chat/${plan.chatRoomId}`);
    proxy.restore();
    // Both back: an instance still reconnecting would run the generation without reaching Redis, and
    // its first days would be lost to live subscribers (a new epoch says so; the days are saved).
    for (const server of [a, b]) await expect.poll(async () => (await server.request('GET', '/readyz')).status, { timeout: 20_000, interval: 200 }).toBe(200);
    expect((await a.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token })).status).toBe(200);
    // Every day and the run's end reach both subscriptions made during the outage, in order.
    await onB.waitFor(isEnd, 30_000);
    const days = onB.messages.filter((m) => m.destination === `/user/sub/schedule/${plan.tripPlanId}`);
    expect(days.map((m) => (m.body as { dailyPlan: { dayNumber: number } }).dailyPlan.dayNumber)).toEqual([1, 2, 3]);
  });
});
