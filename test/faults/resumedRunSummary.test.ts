// A run that stops between a day and that day's chat summary (its owner frozen past its lease, or
// the instance stopped, with GENERATION_TAKEOVER=resume): the attempt that resumes it summarises
// that day first, from the day as saved, and goes on. The chat history (GET over HTTP) then holds
// exactly one summary per day, in day order, and live subscribers got each day's summary after
// the day itself. Across instances on PostgreSQL (a frozen owner, Redis carrying the messages to
// every instance), and on SQLite across a restart of its one process.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readDatabaseIdentity } from '../../src/db/databaseIdentity.js';
import { createOfflinePlanner } from '../../src/generation/offline/offlinePlanner.js';
import type { Planner } from '../../src/generation/planner.js';
import { freshPostgresDatabase, postgresForTests } from '../support/postgres.js';
import { redisForTests } from '../support/redis.js';
import { bodyOf } from '../support/responseBody.js';
import {
  assistantMessages,
  dayNumberOf,
  generationStatus,
  isCompleted,
  isDayGenerated,
  isFullSummary,
  messageTextOf,
  savedDays,
} from '../support/savedGeneration.js';
import { connectStomp, wsUrl, type ReceivedMessage, type StompTestClient } from '../support/stompTestClient.js';
import { busanTrip } from '../support/testApp.js';
import { startTestServer, type TestServer } from '../support/testServer.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface SummaryHeldPlanner extends Planner {
  /** plans with `inner` (the offline planner, made once the app's database exists); runs wait for it */
  use(inner: Planner): void;
  /** resolves once the summary of the held day has streamed its first chunk and stopped */
  held: Promise<void>;
  /** lets the held summary go on */
  release(): void;
}

/**
 * Plans with the planner given to use(), except that the summary of day `dayNumber` (or the first
 * summary it is asked for) stops after its first chunk until released (or the run is aborted).
 */
function plannerHoldingSummaryOf(dayNumber: number | 'the first'): SummaryHeldPlanner {
  let use!: (inner: Planner) => void;
  const inner = new Promise<Planner>((resolve) => (use = resolve));
  let reached!: () => void;
  const held = new Promise<void>((resolve) => (reached = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  /** the summary to hold has not come yet */
  let holding = true;
  return {
    name: 'summary-held',
    use,
    held,
    release: () => release(),
    async *plan(request, signal) {
      yield* (await inner).plan(request, signal);
    },
    async *summarize(day, request, signal) {
      for await (const chunk of (await inner).summarize(day, request, signal)) {
        yield chunk;
        if (!holding || (dayNumber !== 'the first' && day.dayNumber !== dayNumber)) continue;
        holding = false;
        reached();
        await new Promise<void>((resolve, reject) => {
          const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
          if (signal.aborted) return onAbort();
          signal.addEventListener('abort', onAbort, { once: true });
          void released.then(() => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          });
        });
      }
    },
  };
}

async function subscribed(s: TestServer, token: string, plan: { tripPlanId: number; chatRoomId: number }): Promise<StompTestClient> {
  const client = await connectStomp(wsUrl(s.url), token);
  cleanups.push(() => client.disconnect());
  for (const destination of [`/user/sub/schedule/${plan.tripPlanId}`, `/user/sub/chat/${plan.chatRoomId}`, `/user/sub/errors/${plan.chatRoomId}`]) {
    await client.subscribe(destination);
  }
  return client;
}

/** The days and whole summaries the messages announce, in the order they came: 'day 1', 'summary: <text>', ... */
const dayAndSummaryOrder = (messages: ReceivedMessage[]) =>
  messages.filter((m) => isDayGenerated(m) || isFullSummary(m)).map((m) => (isDayGenerated(m) ? `day ${dayNumberOf(m)}` : `summary: ${messageTextOf(m)}`));

/** What a subscriber sees of a 3-day plan: each day, then its summary (the offline planner's summary of a day is its description). */
const eachDayThenItsSummary = (days: { dayNumber: number; description: string }[]) => days.flatMap((d) => [`day ${d.dayNumber}`, `summary: ${d.description}`]);

async function startedPlan(s: TestServer, email: string) {
  const { accessToken: token } = await s.signIn(email);
  const plan = bodyOf(await s.request('POST', '/api/v1/trips', { token, body: busanTrip }), 'createTripPlanSession', 201).data;
  return { token, plan };
}

describe.skipIf(!postgresForTests.available || !redisForTests.available)(
  'a resumed run and the summary its predecessor did not store (PostgreSQL, Redis)',
  () => {
    it('the owner freezes mid-summary of day 2 and its lease runs out: the instance that resumes summarises day 2 first; one summary per day', async () => {
      const database = await freshPostgresDatabase({ migrated: true });
      cleanups.push(() => database.drop());
      const env = {
        DATABASE_URL: database.url,
        REDIS_URL: redisForTests.available ? redisForTests.url : '',
        GENERATION_TAKEOVER: 'resume',
        GENERATION_LEASE_MS: '1500',
        GENERATION_HEARTBEAT_MS: '100',
        GENERATION_SWEEP_MS: '100',
        GENERATION_POLL_MS: '50',
        PLANNER_DELAY_MS: '0',
      };
      const planner = plannerHoldingSummaryOf(2);
      const frozen = await startTestServer(env, { planner, clock: () => Date.now() });
      cleanups.push(() => frozen.stop());
      planner.use(createOfflinePlanner({ db: frozen.app.services.db, delayMs: 0 }));
      // The plan logs of this database's instances live under its identity in the shared Redis.
      const identity = await readDatabaseIdentity(frozen.app.services.db);
      cleanups.push(async () => {
        if (!redisForTests.available) return;
        const { Redis } = await import('ioredis');
        const redis = new Redis(redisForTests.url);
        const keys = await redis.keys(`rt:${identity}:*`);
        if (keys.length > 0) await redis.del(...keys);
        redis.disconnect();
      });

      const { token, plan } = await startedPlan(frozen, 'frozen@example.com');
      const client = await subscribed(frozen, token, plan);
      expect((await frozen.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token })).status).toBe(200);
      await planner.held;
      frozen.app.worker.pauseHeartbeats();

      const heir = await startTestServer(env, { clock: () => Date.now() });
      cleanups.push(() => heir.stop());
      await client.waitFor(isCompleted, 30_000);
      // The frozen owner wakes: its summary is refused (attempt 1 is over) and it stops.
      planner.release();

      expect(await generationStatus(heir, token, plan.tripPlanId)).toBe('COMPLETED');
      const days = await savedDays(heir, token, plan.tripPlanId);
      expect(days.map((d) => d.dayNumber)).toEqual([1, 2, 3]);
      expect(await assistantMessages(heir, token, plan.chatRoomId)).toEqual(days.map((d) => d.description));
      expect(dayAndSummaryOrder(client.messages)).toEqual(eachDayThenItsSummary(days));
      expect(await heir.app.worker.stats()).toMatchObject({ completed: 1 });
    });
  },
);

describe('a resumed run and the summary its predecessor did not store (SQLite)', () => {
  it('the instance stops mid-summary of day 2 and is started again: the restarted process summarises day 2 first; one summary per day', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-resume-'));
    cleanups.push(() => fs.promises.rm(dir, { recursive: true, force: true }));
    const env = { DATA_DIR: dir, DATABASE_URL: path.join(dir, 'trips.sqlite'), GENERATION_TAKEOVER: 'resume', PLANNER_DELAY_MS: '0' };
    const planner = plannerHoldingSummaryOf(2);
    const stopped = await startTestServer(env, { planner });
    let stopping: Promise<void> | undefined;
    const stop = () => (stopping ??= stopped.stop());
    cleanups.push(stop);
    planner.use(createOfflinePlanner({ db: stopped.app.services.db, delayMs: 0 }));

    const { token, plan } = await startedPlan(stopped, 'restart@example.com');
    const before = await subscribed(stopped, token, plan);
    expect((await stopped.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token })).status).toBe(200);
    await planner.held;
    // The stop gives the run back (resume): it waits in the database for the next start.
    await stop();

    const plannerAfter = plannerHoldingSummaryOf('the first');
    const restarted = await startTestServer(env, { planner: plannerAfter });
    cleanups.push(() => restarted.stop());
    plannerAfter.use(createOfflinePlanner({ db: restarted.app.services.db, delayMs: 0 }));
    // The restarted process claims the run at once; its first summary (day 2's) waits for a live subscriber.
    await plannerAfter.held;
    const after = await subscribed(restarted, token, plan);
    plannerAfter.release();
    await after.waitFor(isCompleted, 30_000);

    expect(await generationStatus(restarted, token, plan.tripPlanId)).toBe('COMPLETED');
    const days = await savedDays(restarted, token, plan.tripPlanId);
    expect(days.map((d) => d.dayNumber)).toEqual([1, 2, 3]);
    expect(await assistantMessages(restarted, token, plan.chatRoomId)).toEqual(days.map((d) => d.description));
    expect([...dayAndSummaryOrder(before.messages), ...dayAndSummaryOrder(after.messages)]).toEqual(eachDayThenItsSummary(days));
  });
});
