// A generation whose PostgreSQL stops answering for a while (a TCP proxy the test controls stands
// between the instance and the server and holds every byte, as a stopped server or a black-hole
// partition would): a query on an open connection hangs, and one that needs a connection fails
// after CONNECT_TIMEOUT_MS ("timeout exceeded when trying to connect"). The instance behind the
// proxy has one connection (DATABASE_POOL_MAX=1), held by a query that hangs, so the run's next step
// meets that error, as any step of a busy pool would; or the connection under the run's write is
// reset (ECONNRESET). While the run still holds its lease it tries the step again (with backoff)
// and the plan completes with every day and summary once; when the outage outlasts the lease the
// run stops writing, and another instance's sweeper resumes or fails the job per GENERATION_TAKEOVER.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { CONNECT_TIMEOUT_MS } from '../../src/db/postgresDatabase.js';
import { createOfflinePlanner } from '../../src/generation/offline/offlinePlanner.js';
import type { Planner } from '../../src/generation/planner.js';
import { gatedPlanner, type GatedPlanner } from '../support/plannerStubs.js';
import { describeOnPostgres, freshPostgresDatabase, type FreshPostgresDatabase } from '../support/postgres.js';
import { bodyOf } from '../support/responseBody.js';
import {
  assistantMessages,
  dayNumberOf,
  generationStatus,
  isCompleted,
  isDayGenerated,
  isFullSummary,
  isGenerationFailure,
  savedDays,
} from '../support/savedGeneration.js';
import { connectStomp, wsUrl, type StompTestClient } from '../support/stompTestClient.js';
import { startTcpProxy, throughProxy, type TcpProxy } from '../support/tcpProxy.js';
import { busanTrip, startTestApp, type TestApp } from '../support/testApp.js';
import { startTestServer, type TestServer } from '../support/testServer.js';

const POLL = { timeout: 30_000, interval: 50 };
const QUICK = { GENERATION_HEARTBEAT_MS: '200', GENERATION_SWEEP_MS: '100', GENERATION_POLL_MS: '50', PLANNER_DELAY_MS: '0' };
/** Longer than a step waits for a connection: the step fails at least once before the database is back. */
const OUTAGE_MS = CONNECT_TIMEOUT_MS + 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let database: FreshPostgresDatabase;
let proxy: TcpProxy;
const cleanups: (() => Promise<unknown>)[] = [];

/** An instance whose every connection to PostgreSQL goes through the proxy, planning with the offline planner held at a gate before each day. */
async function instanceBehindProxy(env: Record<string, string>): Promise<{ s: TestServer; planner: GatedPlanner }> {
  let inner!: Planner;
  const planner = gatedPlanner(() => inner);
  const s = await startTestServer(
    { ...QUICK, ...env, DATABASE_URL: throughProxy(database.url, proxy), DATABASE_POOL_MAX: '1' },
    { planner, clock: () => Date.now() },
  );
  inner = createOfflinePlanner({ db: s.app.services.db, delayMs: 0 });
  cleanups.push(async () => {
    for (const tripPlanId of planner.started) planner.finish(tripPlanId);
    await s.stop();
  });
  return { s, planner };
}

/** An instance connected to PostgreSQL directly. */
async function instanceBeside(env: Record<string, string>): Promise<TestApp> {
  const t = await startTestApp({ ...QUICK, ...env, DATABASE_URL: database.url }, { clock: () => Date.now() });
  cleanups.push(() => t.close());
  return t;
}

/**
 * Stops the database answering `s`, with a query of the test hanging on its one connection (as a
 * query of its own would); `restore()` lets everything through again and gives the connection back.
 */
async function pauseDatabaseOf(s: TestServer): Promise<{ restore(): Promise<void> }> {
  const { engine } = s.app.services.db;
  if (engine.dialect !== 'postgres') throw new Error('the instance behind the proxy runs on PostgreSQL');
  const connection = await engine.db.$client.connect();
  proxy.pause();
  const hanging = connection.query('SELECT 1');
  return {
    async restore() {
      proxy.restore();
      await hanging;
      connection.release();
    },
  };
}

/** The runs `s` holds and how its runs ended (trip_generations_total), read off its metrics: its database may not answer. */
async function runsEnded(s: TestServer): Promise<{ running: number; ended: Record<string, number> }> {
  const metrics = s.app.services.metrics!;
  const [running] = (await metrics.generationsRunning.get()).values;
  const ended = (await metrics.generations.get()).values.filter((v) => v.value > 0).map((v) => [String(v.labels.outcome), v.value]);
  return { running: running?.value ?? 0, ended: Object.fromEntries(ended) as Record<string, number> };
}

/** A subscribed member whose 3-day plan's run (on `s`) has saved day 1 and is held before day 2. */
async function runHeldAfterDayOne(s: TestServer, planner: GatedPlanner) {
  const { accessToken: token } = await s.signIn('outage@example.com');
  const plan = bodyOf(await s.request('POST', '/api/v1/trips', { token, body: busanTrip }), 'createTripPlanSession', 201).data;
  const client: StompTestClient = await connectStomp(wsUrl(s.url), token);
  cleanups.push(() => client.disconnect());
  for (const destination of [`/user/sub/schedule/${plan.tripPlanId}`, `/user/sub/chat/${plan.chatRoomId}`, `/user/sub/errors/${plan.chatRoomId}`]) {
    await client.subscribe(destination);
  }
  expect((await s.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token })).status).toBe(200);
  planner.step(plan.tripPlanId);
  expect(await planner.paused(plan.tripPlanId)).toBe(1);
  return { token, client, ...plan };
}

describeOnPostgres('a generation while PostgreSQL is away (PostgreSQL)', () => {
  beforeEach(async () => {
    database = await freshPostgresDatabase({ migrated: true });
    const server = new URL(database.url);
    proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
  });

  afterEach(async () => {
    proxy.restore();
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await proxy.close();
    await database.drop();
  });

  it('an outage shorter than the lease: the run tries its step again until the database is back and completes, every day and summary once, no AI002', async () => {
    const { s, planner } = await instanceBehindProxy({ GENERATION_LEASE_MS: '20000', GENERATION_TAKEOVER: 'resume' });
    const { token, client, tripPlanId, chatRoomId } = await runHeldAfterDayOne(s, planner);

    const outage = await pauseDatabaseOf(s);
    planner.step(tripPlanId);
    await sleep(OUTAGE_MS);
    await outage.restore();
    planner.finish(tripPlanId);

    await client.waitFor((m) => isCompleted(m) || isGenerationFailure(m), 30_000);
    expect(client.messages.filter(isGenerationFailure)).toEqual([]);
    expect(client.messages.filter(isDayGenerated).map(dayNumberOf)).toEqual([1, 2, 3]);
    expect(await generationStatus(s, token, tripPlanId)).toBe('COMPLETED');
    const days = await savedDays(s, token, tripPlanId);
    expect(days.map((d) => d.dayNumber)).toEqual([1, 2, 3]);
    // The offline planner's summary of a day is its description, streamed in chunks.
    expect(await assistantMessages(s, token, chatRoomId)).toEqual(days.map((d) => d.description));
    expect(client.messages.filter(isFullSummary)).toHaveLength(3);
    expect(await s.app.worker.stats()).toMatchObject({ completed: 1, failed: 0, lost: 0 });
  }, 60_000);

  it('a reset of the connection under the run’s write: the run writes again on a new connection and completes, every day once, no AI002', async () => {
    // Background work far apart: the run's write is the query on the instance's one connection.
    const quiet = { GENERATION_HEARTBEAT_MS: '5000', GENERATION_SWEEP_MS: '60000', GENERATION_POLL_MS: '60000', STOMP_SESSION_CHECK_MS: '3600000' };
    const { s, planner } = await instanceBehindProxy({ ...quiet, GENERATION_LEASE_MS: '20000', GENERATION_TAKEOVER: 'resume' });
    const { token, client, tripPlanId, chatRoomId } = await runHeldAfterDayOne(s, planner);
    const { engine } = s.app.services.db;
    if (engine.dialect !== 'postgres') throw new Error('the instance behind the proxy runs on PostgreSQL');

    proxy.pause();
    planner.step(tripPlanId);
    await vi.waitFor(() => expect(engine.db.$client.idleCount).toBe(0), POLL);
    proxy.reset();
    proxy.restore();
    planner.finish(tripPlanId);

    await client.waitFor((m) => isCompleted(m) || isGenerationFailure(m), 30_000);
    expect(client.messages.filter(isGenerationFailure)).toEqual([]);
    expect(client.messages.filter(isDayGenerated).map(dayNumberOf)).toEqual([1, 2, 3]);
    const days = await savedDays(s, token, tripPlanId);
    expect(days.map((d) => d.dayNumber)).toEqual([1, 2, 3]);
    expect(await assistantMessages(s, token, chatRoomId)).toEqual(days.map((d) => d.description));
  });

  it.each(['resume', 'fail'] as const)(
    'an outage that outlasts the lease (GENERATION_TAKEOVER=%s): the run stops writing without AI002 of its own, and another instance resumes or fails the job',
    async (takeover) => {
      const env = { GENERATION_LEASE_MS: '2000', GENERATION_TAKEOVER: takeover };
      const { s: cutOff, planner } = await instanceBehindProxy(env);
      const { token, client, tripPlanId, chatRoomId } = await runHeldAfterDayOne(cutOff, planner);
      const other = await instanceBeside(env);

      const outage = await pauseDatabaseOf(cutOff);
      planner.step(tripPlanId);
      // The other instance sees the lease run out and sweeps it; the cut-off run gives up by its own clock.
      await vi.waitFor(async () => expect(await generationStatus(other, token, tripPlanId)).toBe(takeover === 'resume' ? 'COMPLETED' : 'FAILED'), POLL);
      await vi.waitFor(async () => expect((await runsEnded(cutOff)).running).toBe(0), POLL);
      await outage.restore();

      expect((await runsEnded(cutOff)).ended).toEqual({ taken_over: 1 });
      expect(client.messages.filter(isGenerationFailure)).toEqual([]);
      expect(client.messages.filter(isDayGenerated).map(dayNumberOf)).toEqual([1]);
      const days = await savedDays(other, token, tripPlanId);
      expect(days.map((d) => d.dayNumber)).toEqual(takeover === 'resume' ? [1, 2, 3] : [1]);
      expect(await assistantMessages(other, token, chatRoomId)).toEqual(days.map((d) => d.description));
      expect(await other.app.worker.stats()).toMatchObject(takeover === 'resume' ? { completed: 1 } : { completed: 0 });
    },
    60_000,
  );
});
