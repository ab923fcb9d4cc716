// Two real server processes (src/main.ts, as `npm start` runs it) on one PostgreSQL database and
// one Redis database (issue 13; SCALEOUT.md section 8). A runs the generations, B runs none
// (GENERATION_CONCURRENCY=0), so every message a client of B gets crossed Redis. Skipped when
// PostgreSQL or Redis does not answer (their global setups print why), failing under CI=true.
// Time limits only bound a hang; no test asserts how fast anything was.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase, postgresForTests, type FreshPostgresDatabase } from '../support/postgres.js';
import { openRawStomp } from '../support/rawStompSocket.js';
import { freshRedisSpace, redisForTests, type FreshRedisSpace } from '../support/redis.js';
import { lineOf, spawnService } from '../support/serviceProcess.js';
import { connectStomp, wsUrl, type ReceivedMessage, type StompTestClient } from '../support/stompTestClient.js';
import { busanTrip } from '../support/testApp.js';

const HANG_LIMIT_MS = 60_000;
/** This file's Redis database (other suites use 0 with their own key prefixes). */
const REDIS_DB = 12;

interface Instance {
  url: string;
  child: ChildProcess;
}

interface Plan {
  tripPlanId: number;
  chatRoomId: number;
}

const body = (m: ReceivedMessage) => m.body as { messageStreamType?: string; code?: string; type?: string; dailyPlan?: { dayNumber: number } } | undefined;
const isEnd = (m: ReceivedMessage) => body(m)?.messageStreamType === 'COMPLETED' || body(m)?.messageStreamType === 'CANCELLED' || body(m)?.code === 'AI002';
const identity = (m: ReceivedMessage) => `${m.destination} ${m.headers['x-epoch']}:${m.headers['x-offset']} ${m.raw}`;
const destinationsOf = (plan: Plan) => [`/user/sub/schedule/${plan.tripPlanId}`, `/user/sub/chat/${plan.chatRoomId}`, `/user/sub/errors/${plan.chatRoomId}`];

async function call<T = unknown>(instance: Instance, method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  const res = await fetch(`${instance.url}${path}`, {
    method,
    headers: { ...(options.token && { authorization: `Bearer ${options.token}` }), ...(options.body !== undefined && { 'content-type': 'application/json' }) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, data: (text ? (JSON.parse(text) as { data: T }) : { data: undefined as T }).data };
}

describe.skipIf(!postgresForTests.available || !redisForTests.available)('two server processes on PostgreSQL + Redis', { timeout: 4 * HANG_LIMIT_MS }, () => {
  let database: FreshPostgresDatabase;
  let space: FreshRedisSpace;
  let a: Instance;
  let b: Instance;
  const clients: StompTestClient[] = [];

  async function start(env: Record<string, string>): Promise<Instance> {
    const child = spawnService(env);
    const listening = await lineOf(child, /"msg":"listening/, HANG_LIMIT_MS);
    return { url: `http://127.0.0.1:${(JSON.parse(listening) as { port: number }).port}`, child };
  }

  beforeAll(async () => {
    database = await freshPostgresDatabase();
    space = await freshRedisSpace(REDIS_DB);
    await space.client.flushdb();
    const redis = new URL(redisForTests.available ? redisForTests.url : 'redis://127.0.0.1:6379');
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: `redis://${redis.host}/${REDIS_DB}`,
      JWT_SECRET: 'distributed-test-secret-0123456789abcdef',
      AUTH_DEV_LOGIN: 'true',
      PORT: '0',
      LOG_LEVEL: 'info',
      PLANNER_DELAY_MS: '15',
      RATE_LIMIT_PER_MINUTE: '100000',
      STOMP_SESSION_CHECK_MS: '3600000',
      INSTANCE_COUNT_HINT: '2',
    };
    // A first: it migrates the fresh database; B then finds it migrated.
    a = await start({ ...env, GENERATION_CONCURRENCY: '4' });
    b = await start({ ...env, GENERATION_CONCURRENCY: '0' });
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.disconnect()));
    for (const instance of [a, b]) {
      if (!instance) continue;
      const exited = new Promise((resolve) => instance.child.once('exit', resolve));
      instance.child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, HANG_LIMIT_MS).unref())]);
      instance.child.kill('SIGKILL');
    }
    await space?.client.flushdb();
    await space?.drop();
    await database?.drop();
  });

  const signIn = async (instance: Instance, email: string) =>
    (await call<{ accessToken: string }>(instance, 'POST', '/api/v1/auth/dev-login', { body: { email } })).data;
  const newPlan = async (token: string) => (await call<Plan>(a, 'POST', '/api/v1/trips', { token, body: busanTrip })).data;
  const connect = async (instance: Instance, token: string) => {
    const client = await connectStomp(wsUrl(instance.url), token);
    clients.push(client);
    return client;
  };

  it('both are ready (PostgreSQL and Redis connected)', async () => {
    expect((await call(a, 'GET', '/readyz')).status).toBe(200);
    expect((await call(b, 'GET', '/readyz')).status).toBe(200);
  });

  it('a generation started over HTTP on A reaches a STOMP client of B, every message in order; a late x-replay subscriber on B gets it again', async () => {
    const { accessToken: token } = await signIn(a, 'fan-out@example.com');
    const plan = await newPlan(token);
    const onB = await connect(b, token);
    for (const destination of destinationsOf(plan)) await onB.subscribe(destination);
    expect((await call(a, 'POST', `/api/v1/trips/${plan.tripPlanId}`, { token })).status).toBe(200);
    expect(body(await onB.waitFor(isEnd, HANG_LIMIT_MS))?.messageStreamType).toBe('COMPLETED');
    const [schedule, chat] = destinationsOf(plan).map((d) => onB.messages.filter((m) => m.destination === d));
    expect(schedule!.map((m) => body(m)?.dailyPlan?.dayNumber)).toEqual([1, 2, 3]);
    expect(schedule!.map((m) => Number(m.headers['x-offset']))).toEqual([1, 2, 3]);
    expect(chat!.map((m) => Number(m.headers['x-offset']))).toEqual(chat!.map((_, i) => i + 1));

    const late = await connect(b, token);
    for (const destination of destinationsOf(plan)) {
      expect(await late.subscribeReplaying(destination, { 'x-replay': 'all' })).toMatchObject({ recovered: 'true' });
    }
    expect(late.messages.map(identity).sort()).toEqual(onB.messages.map(identity).sort());
  });

  it('a client of B that reconnects to A with x-since gets exactly what it missed', async () => {
    const { accessToken: token } = await signIn(b, 'reconnect@example.com');
    const plan = await newPlan(token);
    const chatDestination = destinationsOf(plan)[1]!;
    const first = await connect(b, token);
    await first.subscribe(chatDestination);
    expect((await call(b, 'POST', `/api/v1/trips/${plan.tripPlanId}`, { token })).status).toBe(200);
    await first.waitFor(() => first.messages.length >= 5, HANG_LIMIT_MS);
    await first.disconnect();
    const seen = first.messages.at(-1)!;

    const again = await connect(a, token);
    const since = `${seen.headers['x-epoch']}:${seen.headers['x-offset']}`;
    expect(await again.subscribeReplaying(chatDestination, { 'x-since': since })).toMatchObject({ recovered: 'true' });
    await again.waitFor(isEnd, HANG_LIMIT_MS);
    const offsets = again.messages.map((m) => Number(m.headers['x-offset']));
    expect(offsets[0]).toBe(Number(seen.headers['x-offset']) + 1);
    expect(offsets).toEqual(offsets.map((_, i) => offsets[0]! + i));
  });

  it('a cancel on B stops the run on A: CANCELLED, nothing after it, the plan CANCELLED', async () => {
    const { accessToken: token } = await signIn(a, 'cancel@example.com');
    const plan = await newPlan(token);
    const onA = await connect(a, token);
    for (const destination of destinationsOf(plan)) await onA.subscribe(destination);
    expect((await call(a, 'POST', `/api/v1/trips/${plan.tripPlanId}`, { token })).status).toBe(200);
    await onA.waitFor((m) => body(m)?.type === 'DAILY_PLAN_GENERATED', HANG_LIMIT_MS);
    expect((await call(b, 'POST', `/api/v1/trips/${plan.tripPlanId}/cancel`, { token })).status).toBe(200);
    const end = await onA.waitFor(isEnd, HANG_LIMIT_MS);
    expect(body(end)?.messageStreamType).toBe('CANCELLED');
    // A later message on the plan's chat (an answer to a blank message) comes after anything the run could still have sent.
    await onA.send(`/pub/chat/${plan.chatRoomId}/message`, '{"content":" "}');
    await onA.waitFor((m) => body(m)?.code === 'CHAT102', HANG_LIMIT_MS);
    const afterEnd = onA.messages.slice(onA.messages.indexOf(end) + 1).map((m) => body(m)?.code ?? body(m)?.messageStreamType ?? body(m)?.type);
    expect(afterEnd).toEqual(['CHAT102']);
    expect((await call<{ generationStatus: string }>(b, 'GET', `/api/v1/trips/${plan.tripPlanId}`, { token })).data.generationStatus).toBe('CANCELLED');
  });

  it('a logout on A closes the STOMP connections of that session on B with ERROR WS002', async () => {
    const { accessToken: token } = await signIn(a, 'logout@example.com');
    const onB = await openRawStomp(b.url, token);
    expect(onB.frames[0]?.command).toBe('CONNECTED');
    expect((await call(a, 'POST', '/api/v1/auth/logout', { token })).status).toBe(204);
    // The periodic session check runs once an hour here: only the control channel explains the close.
    await onB.closed;
    expect(onB.errorCode()).toBe('WS002');
  });

  it('counts the rate limit of a client address across both', async () => {
    const remaining = async (instance: Instance) => Number((await call(instance, 'GET', '/healthz')).headers.get('RateLimit-Remaining'));
    const first = await remaining(a);
    expect([await remaining(b), await remaining(a), await remaining(b)]).toEqual([first - 1, first - 2, first - 3]);
  });
});
