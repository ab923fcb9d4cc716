// Two real server processes (src/main.ts, as `npm start` runs it) on one PostgreSQL database and
// one Redis database (docs/operations.md, "Several instances (PostgreSQL + Redis)"). A runs the generations, B
// runs none (GENERATION_CONCURRENCY=0), so every message a client of B gets crossed Redis. Skipped
// when PostgreSQL or Redis does not answer (their global setups print why), failing under CI=true.
// The second suite adds the SIGTERM hand-over (resume and fail) and a third instance. Time limits
// only bound a hang; no test asserts how fast anything was.
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { freshPostgresDatabase, postgresForTests, type FreshPostgresDatabase } from '../support/postgres.js';
import { openRawStomp } from '../support/rawStompSocket.js';
import { freshRedisSpace, redisForTests, type FreshRedisSpace } from '../support/redis.js';
import { ensureFreshBuild } from '../support/freshBuild.js';
import { exitOf, lineOf, spawnBuiltService } from '../support/serviceProcess.js';
import { connectStomp, wsUrl, type ReceivedMessage, type StompTestClient } from '../support/stompTestClient.js';
import { busanTrip } from '../support/testApp.js';

const HANG_LIMIT_MS = 60_000;
const POLL = { timeout: HANG_LIMIT_MS, interval: 100 };
/** This file's Redis database (other suites use 0 with their own key prefixes). */
const REDIS_DB = 12;

beforeAll(ensureFreshBuild, 2 * HANG_LIMIT_MS);

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

async function start(env: Record<string, string>): Promise<Instance> {
  const child = spawnBuiltService(env);
  const listening = await lineOf(child, /"msg":"listening/, HANG_LIMIT_MS);
  return { url: `http://127.0.0.1:${(JSON.parse(listening) as { port: number }).port}`, child };
}

/** SIGTERM, then SIGKILL if it has not exited within the hang limit. */
async function stop(instance: Instance | undefined) {
  if (!instance || instance.child.exitCode !== null || instance.child.signalCode !== null) return;
  const exited = new Promise((resolve) => instance.child.once('exit', resolve));
  instance.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, HANG_LIMIT_MS).unref())]);
  instance.child.kill('SIGKILL');
}

/** What every instance of one cluster shares: the database, Redis, the JWT secret. */
function sharedEnv(database: FreshPostgresDatabase, redisDb: number): Record<string, string> {
  const redis = new URL(redisForTests.available ? redisForTests.url : 'redis://127.0.0.1:6379');
  return {
    DATABASE_URL: database.url,
    REDIS_URL: `redis://${redis.host}/${redisDb}`,
    JWT_SECRET: 'distributed-test-secret-0123456789abcdef',
    AUTH_DEV_LOGIN: 'true',
    PORT: '0',
    LOG_LEVEL: 'info',
    PLANNER_DELAY_MS: '15',
    RATE_LIMIT_PER_MINUTE: '100000',
    STOMP_SESSION_CHECK_MS: '3600000',
    INSTANCE_COUNT_HINT: '2',
  };
}

describe.skipIf(!postgresForTests.available || !redisForTests.available)('two server processes on PostgreSQL + Redis', { timeout: 4 * HANG_LIMIT_MS }, () => {
  let database: FreshPostgresDatabase;
  let space: FreshRedisSpace;
  let a: Instance;
  let b: Instance;
  const clients: StompTestClient[] = [];

  beforeAll(async () => {
    database = await freshPostgresDatabase();
    space = await freshRedisSpace(REDIS_DB);
    await space.client.flushdb();
    const env = sharedEnv(database, REDIS_DB);
    // A first: it migrates the fresh database; B then finds it migrated.
    a = await start({ ...env, GENERATION_CONCURRENCY: '4' });
    b = await start({ ...env, GENERATION_CONCURRENCY: '0' });
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.disconnect()));
    for (const instance of [a, b]) await stop(instance);
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

  it('history loss: Redis emptied mid-run; the run goes on under a new epoch on B, a resume on A says x-recovered: false, HTTP has every day', async () => {
    const { accessToken: token } = await signIn(a, 'history-loss@example.com');
    const plan = await newPlan(token);
    const [scheduleDestination] = destinationsOf(plan);
    const onB = await connect(b, token);
    await onB.subscribe(scheduleDestination!);
    expect((await call(a, 'POST', `/api/v1/trips/${plan.tripPlanId}`, { token })).status).toBe(200);
    const day1 = await onB.waitFor((m) => body(m)?.dailyPlan?.dayNumber === 1, HANG_LIMIT_MS);
    // What a Redis restart without persistence leaves: nothing.
    await space.client.flushdb();
    await onB.waitFor((m) => body(m)?.dailyPlan?.dayNumber === 3, HANG_LIMIT_MS);
    const days = onB.messages.filter((m) => m.destination === scheduleDestination);
    expect(days.map((m) => body(m)?.dailyPlan?.dayNumber)).toEqual([1, 2, 3]);
    const [, day2, day3] = days;
    expect(day2!.headers['x-epoch']).not.toBe(day1.headers['x-epoch']);
    expect(day3!.headers['x-epoch']).toBe(day2!.headers['x-epoch']);
    expect(Number(day3!.headers['x-offset'])).toBeGreaterThan(Number(day2!.headers['x-offset']));

    const resumed = await connect(a, token);
    const since = `${day1.headers['x-epoch']}:${day1.headers['x-offset']}`;
    expect(await resumed.subscribeReplaying(scheduleDestination!, { 'x-since': since })).toMatchObject({ recovered: 'false' });
    expect(resumed.messages).toEqual([]);
    const saved = await call<{ dayNumber: number }[]>(a, 'GET', `/api/v1/trips/daily-plans/${plan.tripPlanId}`, { token });
    expect(saved.data.map((day) => day.dayNumber)).toEqual([1, 2, 3]);
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

// A fresh database (a copy of the run's migrated template: the first suite has an instance migrate
// an empty one) and Redis database per case: each starts its own instances. The lease here
// outlasts the hang limit, so only the SIGTERM hand-over (not a lease running out) can end a run
// its owner stopped running.
describe.skipIf(!postgresForTests.available || !redisForTests.available)('SIGTERM hand-over and three instances', { timeout: 4 * HANG_LIMIT_MS }, () => {
  const HAND_OVER_REDIS_DB = 13;
  const LONG_LEASE = { GENERATION_LEASE_MS: '3600000', GENERATION_HEARTBEAT_MS: '400', GENERATION_SWEEP_MS: '250', GENERATION_POLL_MS: '100' };
  let database: FreshPostgresDatabase | undefined;
  let space: FreshRedisSpace | undefined;
  let db: pg.Client | undefined;
  const instances: Instance[] = [];
  const clients: StompTestClient[] = [];

  beforeEach(async () => {
    database = await freshPostgresDatabase({ migrated: true });
    space = await freshRedisSpace(HAND_OVER_REDIS_DB);
    await space.client.flushdb();
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.disconnect()));
    for (const instance of instances.splice(0)) await stop(instance);
    await db?.end();
    db = undefined;
    await space?.client.flushdb();
    await space?.drop();
    await database?.drop();
  });

  const launch = async (env: Record<string, string>) => {
    const instance = await start({ ...sharedEnv(database!, HAND_OVER_REDIS_DB), ...LONG_LEASE, INSTANCE_COUNT_HINT: '3', ...env });
    instances.push(instance);
    return instance;
  };
  /** Instances started side by side: each one that started is stopped after the test, even when another did not start. */
  const launchTogether = async <Envs extends Record<string, string>[]>(...envs: Envs) => {
    const started = await Promise.allSettled(envs.map(launch));
    for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason;
    return started.map((outcome) => (outcome as PromiseFulfilledResult<Instance>).value) as { [K in keyof Envs]: Instance };
  };
  const connect = async (instance: Instance, token: string) => {
    const client = await connectStomp(wsUrl(instance.url), token);
    clients.push(client);
    return client;
  };
  const query = async <R extends pg.QueryResultRow>(sql: string, values: unknown[]) => {
    if (!db) {
      db = new pg.Client({ connectionString: database!.url });
      await db.connect();
    }
    return (await db.query<R>(sql, values)).rows;
  };
  const savedDays = (tripPlanId: number) =>
    query<{ id: number; day: number }>('SELECT id, day_number AS day FROM daily_plan WHERE trip_plan_id = $1 ORDER BY day_number', [tripPlanId]);
  const planRow = async (tripPlanId: number) =>
    (
      await query<{ status: string; failure: string | null }>('SELECT generation_status AS status, failure_code AS failure FROM trip_plan WHERE id = $1', [
        tripPlanId,
      ])
    )[0];

  /** A plan started over HTTP on `on`, once its first day is saved. */
  async function runningPlan(on: Instance, email: string) {
    const { accessToken: token } = (await call<{ accessToken: string }>(on, 'POST', '/api/v1/auth/dev-login', { body: { email } })).data;
    const plan = (await call<Plan>(on, 'POST', '/api/v1/trips', { token, body: busanTrip })).data;
    expect((await call(on, 'POST', `/api/v1/trips/${plan.tripPlanId}`, { token })).status).toBe(200);
    await vi.waitFor(async () => expect((await savedDays(plan.tripPlanId)).length).toBeGreaterThanOrEqual(1), POLL);
    return { plan, token };
  }

  /** SIGTERM to `instance`: it exits 0; its log, from now on, is returned. */
  async function terminate(instance: Instance) {
    const exit = exitOf(instance.child, HANG_LIMIT_MS);
    instance.child.kill('SIGTERM');
    const { code, stdout } = await exit;
    expect(code).toBe(0);
    return stdout;
  }

  const offsetsOn = (client: StompTestClient, destination: string) =>
    client.messages.filter((m) => m.destination === destination).map((m) => Number(m.headers['x-offset']));

  it('GENERATION_TAKEOVER=resume: SIGTERM of the owner after day 1 hands the run to B, which finishes it; a client of B sees every day once, with no gap it is not told of', async () => {
    // Slow summaries keep A's run going well past its first day, so the SIGTERM lands mid-run.
    const a = await launch({ GENERATION_TAKEOVER: 'resume', PLANNER_DELAY_MS: '250' });
    const { plan, token } = await runningPlan(a, 'hand-over@example.com');
    // B starts only now, so A is the one that claimed the job.
    const b = await launch({ GENERATION_TAKEOVER: 'resume' });
    const onB = await connect(b, token);
    for (const destination of destinationsOf(plan)) await onB.subscribe(destination);
    const before = await savedDays(plan.tripPlanId);

    expect(await terminate(a)).toMatch(/given back by shutdown/);
    expect(body(await onB.waitFor(isEnd, HANG_LIMIT_MS))?.messageStreamType).toBe('COMPLETED');
    expect(await planRow(plan.tripPlanId)).toMatchObject({ status: 'COMPLETED', failure: null });
    const after = await savedDays(plan.tripPlanId);
    expect(after.map((d) => d.day)).toEqual([1, 2, 3]);
    expect(after.slice(0, before.length)).toEqual(before);

    // What B's client saw live: the days A did not save, each once. Within an epoch the offsets
    // follow on with no gap; B's attempt took the run over, so its messages are a new epoch that
    // starts past offset 1 (asyncapi.yaml: what A had on its way may be missing; read the state).
    const [schedule, chat] = destinationsOf(plan);
    const liveDays = onB.messages.filter((m) => m.destination === schedule).map((m) => body(m)?.dailyPlan?.dayNumber);
    expect(liveDays).toEqual([1, 2, 3].slice(3 - liveDays.length));
    expect(liveDays.length).toBeGreaterThanOrEqual(3 - before.length);
    for (const destination of [schedule!, chat!]) {
      const offsets = offsetsOn(onB, destination);
      expect(offsets.length).toBeGreaterThan(0);
      const epochs = [...new Set(onB.messages.filter((m) => m.destination === destination).map((m) => m.headers['x-epoch']))];
      expect(epochs.length).toBeLessThanOrEqual(2);
      for (const [index, epoch] of epochs.entries()) {
        const inEpoch = onB.messages.filter((m) => m.destination === destination && m.headers['x-epoch'] === epoch).map((m) => Number(m.headers['x-offset']));
        expect(inEpoch).toEqual(inEpoch.map((_, i) => inEpoch[0]! + i));
        if (index === 1) expect(inEpoch[0]).toBeGreaterThan(1);
      }
    }
    expect(new Set(onB.messages.map(identity)).size).toBe(onB.messages.length);
    expect(body(onB.messages.filter((m) => m.destination === chat).at(-1)!)?.messageStreamType).toBe('COMPLETED');
  });

  it('GENERATION_TAKEOVER=fail: SIGTERM of the owner ends the run with AI002 at once, seen by a client of B', async () => {
    const a = await launch({ PLANNER_DELAY_MS: '250' });
    const { plan, token } = await runningPlan(a, 'stopped@example.com');
    const b = await launch({});
    const onB = await connect(b, token);
    const errors = destinationsOf(plan)[2]!;
    await onB.subscribe(errors);

    await terminate(a);
    expect((await onB.waitFor((m) => m.destination === errors, HANG_LIMIT_MS)).body).toMatchObject({ code: 'AI002' });
    expect(await planRow(plan.tripPlanId)).toMatchObject({ status: 'FAILED', failure: 'AI002' });
    expect((await call<{ generationStatus: string }>(b, 'GET', `/api/v1/trips/${plan.tripPlanId}`, { token })).data.generationStatus).toBe('FAILED');
  });

  it('three instances: a plan started over HTTP on A reaches clients of B and of C, every message once and in offset order', async () => {
    const [a, b, c] = await launchTogether({}, {}, {});
    const { accessToken: token } = (await call<{ accessToken: string }>(a, 'POST', '/api/v1/auth/dev-login', { body: { email: 'three@example.com' } })).data;
    const plan = (await call<Plan>(a, 'POST', '/api/v1/trips', { token, body: busanTrip })).data;
    const onB = await connect(b, token);
    const onC = await connect(c, token);
    for (const client of [onB, onC]) for (const destination of destinationsOf(plan)) await client.subscribe(destination);
    expect((await call(a, 'POST', `/api/v1/trips/${plan.tripPlanId}`, { token })).status).toBe(200);

    for (const client of [onB, onC]) expect(body(await client.waitFor(isEnd, HANG_LIMIT_MS))?.messageStreamType).toBe('COMPLETED');
    const [schedule, chat] = destinationsOf(plan);
    for (const client of [onB, onC]) {
      expect(client.messages.filter((m) => m.destination === schedule).map((m) => body(m)?.dailyPlan?.dayNumber)).toEqual([1, 2, 3]);
      expect(offsetsOn(client, schedule!)).toEqual([1, 2, 3]);
      const chatOffsets = offsetsOn(client, chat!);
      expect(chatOffsets).toEqual(chatOffsets.map((_, i) => i + 1));
    }
    expect(onC.messages.map(identity)).toEqual(onB.messages.map(identity));
  });
});
