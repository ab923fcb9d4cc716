// The lease runner (src/generation/generationRunner.ts) on SQLite and PostgreSQL, with runners in one
// process standing for instances: no job runs twice at once, a frozen runner is taken over and
// fenced, the sweeper fails or resumes, cancels and stops end a run as openapi.yaml says. The
// clock the leases see is the test's; waiting is polling on outcomes, never a duration.
import { sql } from 'drizzle-orm';
import { afterEach, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import type { DatabasePort } from '../../src/db/databasePort.js';
import { createInProcessEventBus, type EventBus } from '../../src/events/eventBus.js';
import { abortableDelay } from '../../src/generation/abortableDelay.js';
import { claimGeneration } from '../../src/generation/generationLeases.js';
import { startGenerationRunner, type GenerationRunner } from '../../src/generation/generationRunner.js';
import type { Planner } from '../../src/generation/planner.js';
import type { PlannedDay } from '../../src/itinerary/plannedDay.js';
import { createLogger } from '../../src/kernel/logger.js';
import type { RunToken } from '../../src/delivery/planLog.js';
import type { Publishers } from '../../src/delivery/publishers.js';
import { cancelGeneration, startGeneration } from '../../src/trips/generationRequests.js';
import { describeOnBothEngines } from '../support/bothEngines.js';
import { withPlainSql } from '../support/plainSql.js';

const T0 = 1_700_000_000_000;
const POLL = { timeout: 20_000, interval: 20 };

interface Sent {
  channel: 'chat' | 'schedule' | 'error';
  payload: Record<string, unknown>;
  /** the run the message was sent as; null outside any run */
  token: RunToken | null;
}

/** Records what is sent and as which run (the plan log's fencing is its own tests' subject). */
function recordingPublishers(): Publishers & { sent: Sent[] } {
  const sent: Sent[] = [];
  const as = (token: RunToken | null) => ({
    chat: (payload: Record<string, unknown>) => void sent.push({ channel: 'chat', payload, token }),
    schedule: (payload: Record<string, unknown>) => void sent.push({ channel: 'schedule', payload, token }),
    error: (payload: Record<string, unknown>) => void sent.push({ channel: 'error', payload, token }),
    refused: null,
  });
  return {
    sent,
    chat: (_m, _c, payload) => as(null).chat(payload),
    schedule: (_m, _t, payload) => as(null).schedule(payload),
    error: (_to, payload) => as(null).error(payload),
    errorHandedOver: (_to, payload) => Promise.resolve(as(null).error(payload)),
    forRun: (_plan, token) => ({ ...as(token), token }),
    startRun: () => {
      throw new Error('the lease runner sends as the run and attempt of its lease, never as a run of its own numbering');
    },
    stats: { published: 0, refused: 0 },
    settled: () => Promise.resolve(),
  };
}

const generatedDays = (sent: Sent[]) => sent.filter((m) => m.channel === 'schedule').map((m) => (m.payload.dailyPlan as { dayNumber: number }).dayNumber);

function plannedDay(dayNumber: number): PlannedDay {
  return { dayNumber, date: `2026-05-0${dayNumber}`, title: `Day ${dayNumber}`, description: 'The sea.', stops: [] };
}

/** Plans `duration` days; `holdAfter` days in, it waits until `release()` (or the abort). */
function plannerOf(options: { holdAfter?: number } = {}): Planner & { runs: number[]; release(): void } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const runs: number[] = [];
  return {
    name: 'test',
    runs,
    release: () => release(),
    async *plan(request, signal) {
      runs.push(request.tripPlanId);
      for (let n = 1; n <= request.duration; n++) {
        if (options.holdAfter !== undefined && n > options.holdAfter) {
          await Promise.race([released, abortableDelay(2 ** 31 - 1, signal)]);
        }
        yield plannedDay(n);
      }
    },
    async *summarize(day, _request, signal) {
      await abortableDelay(0, signal);
      yield `Day ${day.dayNumber}: `;
      yield 'the sea.';
    },
  };
}

async function addPlan(port: DatabasePort, email: string, duration = 3) {
  return withPlainSql(port, async (s) => {
    const [member] = await s.rows<{ id: number }>(sql`
      INSERT INTO member (email, name, provider, created_at, updated_at) VALUES (${email}, ${email}, 'test', ${T0}, ${T0})
      ON CONFLICT (email) WHERE oidc_subject IS NULL DO UPDATE SET name = excluded.name RETURNING id`);
    const [plan] = await s.rows<{ id: number }>(sql`
      INSERT INTO trip_plan (member_id, title, region, start_date, end_date, duration, people_count, themes, transportation, generation_status, created_at, updated_at)
      VALUES (${member!.id}, 'Trip', 'Busan', '2026-05-01', '2026-05-03', ${duration}, 2, ${'["RESTAURANT"]'}, 'WALKING', 'PENDING', ${T0}, ${T0}) RETURNING id`);
    const [room] = await s.rows<{ id: number }>(
      sql`INSERT INTO chat_room (member_id, trip_plan_id, created_at) VALUES (${member!.id}, ${plan!.id}, ${T0}) RETURNING id`,
    );
    return { tripPlanId: plan!.id, memberId: member!.id, chatRoomId: room!.id };
  });
}

async function state(port: DatabasePort, tripPlanId: number) {
  const [row] = await withPlainSql(port, (s) =>
    s.rows<{ status: string; failureCode: string | null; owner: string | null; attempt: number }>(sql`
      SELECT generation_status AS "status", failure_code AS "failureCode", gen_owner AS "owner", gen_attempt AS "attempt" FROM trip_plan WHERE id = ${tripPlanId}`),
  );
  return row;
}

async function days(port: DatabasePort, tripPlanId: number) {
  return withPlainSql(port, (s) =>
    s.rows<{ id: number; dayNumber: number }>(sql`SELECT id, day_number AS "dayNumber" FROM daily_plan WHERE trip_plan_id = ${tripPlanId} ORDER BY day_number`),
  );
}

const runners: GenerationRunner[] = [];
afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.stop();
});

describeOnBothEngines('generation runner', (port) => {
  let now = T0;
  const clock = () => now;
  const log = createLogger('silent');

  function runner(options: {
    events: EventBus;
    planner: Planner;
    owner: string;
    takeover?: 'fail' | 'resume';
    concurrency?: number;
    failWaitingOnStop?: boolean;
  }): GenerationRunner & { publishers: ReturnType<typeof recordingPublishers> } {
    const publishers = recordingPublishers();
    const jobs = { ...loadConfig({}).generationJobs, leaseMs: 1000, heartbeatMs: 50, sweepMs: 30, pollMs: 30, takeover: options.takeover ?? 'fail' };
    const started = startGenerationRunner({
      port: port(),
      events: options.events,
      planner: options.planner,
      publishers,
      log,
      clock,
      concurrency: options.concurrency ?? 4,
      concurrencyPerMember: 2,
      jobs,
      owner: options.owner,
      failWaitingOnStop: options.failWaitingOnStop ?? false,
    });
    runners.push(started);
    return Object.assign(started, { publishers });
  }

  async function start(events: EventBus, plan: { tripPlanId: number; memberId: number; chatRoomId: number }): Promise<void> {
    expect(await startGeneration(port(), plan.tripPlanId, now)).toBe(true);
    events.publish('tripPlanGenerationRequested', {
      ...plan,
      request: { themes: ['RESTAURANT'], startDate: '2026-05-01', duration: 3, region: 'Busan', peopleCount: 2, transportation: 'WALKING' },
    });
  }

  it('two runners in one process never run the same plan: every plan runs once and is COMPLETED with each day once', async () => {
    now = T0;
    const events = createInProcessEventBus((error) => {
      throw error;
    });
    const planner = plannerOf();
    const a = runner({ events, planner, owner: 'a' });
    const b = runner({ events, planner, owner: 'b' });
    const plans: Awaited<ReturnType<typeof addPlan>>[] = [];
    for (let i = 0; i < 12; i++) plans.push(await addPlan(port(), `two-${i % 4}@example.com`));
    for (const plan of plans) await start(events, plan);
    await vi.waitFor(async () => {
      for (const plan of plans) expect((await state(port(), plan.tripPlanId))!.status).toBe('COMPLETED');
    }, POLL);
    expect([...planner.runs].sort((x, y) => x - y)).toEqual(plans.map((p) => p.tripPlanId));
    for (const plan of plans) expect((await days(port(), plan.tripPlanId)).map((d) => d.dayNumber)).toEqual([1, 2, 3]);
    expect(generatedDays([...a.publishers.sent, ...b.publishers.sent])).toHaveLength(36);
    await Promise.all([a.idle(), b.idle()]);
    const [sa, sb] = await Promise.all([a.stats(), b.stats()]);
    expect(sa.completed + sb.completed).toBe(12);
  });

  it('a runner frozen past its lease is taken over (resume): the heir goes on after the saved day, and the frozen one is fenced when it wakes', async () => {
    now = T0;
    const events = createInProcessEventBus(() => {});
    const frozenPlanner = plannerOf({ holdAfter: 1 });
    const frozen = runner({ events, planner: frozenPlanner, owner: 'frozen', takeover: 'resume' });
    const plan = await addPlan(port(), 'frozen@example.com');
    await start(events, plan);
    await vi.waitFor(() => expect(generatedDays(frozen.publishers.sent)).toEqual([1]), POLL);
    await vi.waitFor(async () => expect((await days(port(), plan.tripPlanId)).length).toBe(1), POLL);
    const [day1] = await days(port(), plan.tripPlanId);

    frozen.pauseHeartbeats();
    now += 5000;
    const heir = runner({ events: createInProcessEventBus(() => {}), planner: plannerOf(), owner: 'heir', takeover: 'resume' });
    await vi.waitFor(async () => expect((await state(port(), plan.tripPlanId))!.status).toBe('COMPLETED'), POLL);
    expect(await state(port(), plan.tripPlanId)).toMatchObject({ attempt: 2 });
    expect(await days(port(), plan.tripPlanId)).toEqual([
      day1,
      { id: expect.any(Number) as number, dayNumber: 2 },
      { id: expect.any(Number) as number, dayNumber: 3 },
    ]);
    expect(generatedDays(heir.publishers.sent), 'day 1 is not announced again').toEqual([2, 3]);
    expect(heir.publishers.sent.every((m) => m.token?.attempt === 2)).toBe(true);

    frozenPlanner.release();
    await frozen.idle();
    expect(generatedDays(frozen.publishers.sent), 'the woken runner announced nothing more').toEqual([1]);
    expect(frozen.publishers.sent.some((m) => m.channel === 'error' || m.payload.messageStreamType === 'COMPLETED')).toBe(false);
    expect((await days(port(), plan.tripPlanId)).map((d) => d.dayNumber)).toEqual([1, 2, 3]);
    expect(await frozen.stats()).toMatchObject({ lost: 1, completed: 0 });
  });

  it('takeover fail: an expired lease of a dead owner ends FAILED with AI002 from the sweeping runner; a live lease is not touched', async () => {
    now = T0;
    const events = createInProcessEventBus(() => {});
    const dead = await addPlan(port(), 'dead@example.com');
    const alive = await addPlan(port(), 'alive@example.com');
    await startGeneration(port(), dead.tripPlanId, now);
    const rules = { nowMs: now, leaseMs: 1000, perMemberLimit: 2, runningHere: new Set<number>(), lastStartedByMember: new Map() };
    await claimGeneration(port(), { ...rules, owner: 'dead' });
    now += 5000;
    await startGeneration(port(), alive.tripPlanId, now);
    await claimGeneration(port(), { ...rules, nowMs: now, owner: 'elsewhere' });
    const sweeper = runner({ events, planner: plannerOf(), owner: 'sweeper', concurrency: 0 });
    await vi.waitFor(async () => expect(await state(port(), dead.tripPlanId)).toMatchObject({ status: 'FAILED', failureCode: 'AI002' }), POLL);
    expect(sweeper.publishers.sent).toEqual([
      {
        channel: 'error',
        payload: expect.objectContaining({ code: 'AI002', path: `/user/sub/errors/${dead.chatRoomId}` }) as unknown,
        // One attempt past the dead owner's: anything it still sends is refused by the plan log.
        token: { run: 1, attempt: 2 },
      },
    ]);
    expect(await state(port(), alive.tripPlanId)).toMatchObject({ status: 'GENERATING', owner: 'elsewhere' });
  });

  it('a cancel made here ends the local run with CANCELLED as its last message; a cancel of a job held elsewhere is announced here', async () => {
    now = T0;
    const events = createInProcessEventBus(() => {});
    const planner = plannerOf({ holdAfter: 1 });
    const local = runner({ events, planner, owner: 'local' });
    const plan = await addPlan(port(), 'cancel@example.com');
    await start(events, plan);
    await vi.waitFor(() => expect(generatedDays(local.publishers.sent)).toEqual([1]), POLL);
    const ended = await cancelGeneration(port(), plan.tripPlanId, now);
    expect(ended).toEqual({ run: 1, attempt: 1 });
    events.publish('tripPlanGenerationCancelRequested', { ...plan, reason: 'cancel', ...ended! });
    await vi.waitFor(() => expect(local.publishers.sent.at(-1)?.payload.messageStreamType).toBe('CANCELLED'), POLL);
    await local.idle();
    expect(local.publishers.sent.filter((m) => m.payload.messageStreamType === 'CANCELLED')).toHaveLength(1);
    expect(local.publishers.sent.every((m) => m.token?.run === 1 && m.token.attempt === 1)).toBe(true);

    // Stopped first: its poll would otherwise claim the remote plan itself.
    await local.stop();
    const remote = await addPlan(port(), 'remote@example.com');
    await startGeneration(port(), remote.tripPlanId, now);
    await claimGeneration(port(), { owner: 'elsewhere', nowMs: now, leaseMs: 1000, perMemberLimit: 2, runningHere: new Set(), lastStartedByMember: new Map() });
    const here = runner({ events, planner, owner: 'here', concurrency: 0 });
    const endedElsewhere = await cancelGeneration(port(), remote.tripPlanId, now);
    events.publish('tripPlanGenerationCancelRequested', { ...remote, reason: 'cancel', ...endedElsewhere! });
    await vi.waitFor(() => expect(here.publishers.sent.map((m) => m.payload.messageStreamType)).toEqual(['CANCELLED']), POLL);
    expect(here.publishers.sent[0]!.token, 'the run held elsewhere is closed by it').toEqual({ run: 1, attempt: 1 });
  });

  it('stop with takeover fail: the run ends FAILED with AI002; on a single-process engine the waiting jobs too', async () => {
    now = T0;
    const events = createInProcessEventBus(() => {});
    const stopping = runner({ events, planner: plannerOf({ holdAfter: 1 }), owner: 'stopping', concurrency: 1, failWaitingOnStop: true });
    const running = await addPlan(port(), 'stop-run@example.com');
    const waiting = await addPlan(port(), 'stop-wait@example.com');
    await start(events, running);
    await vi.waitFor(() => expect(generatedDays(stopping.publishers.sent)).toEqual([1]), POLL);
    await start(events, waiting);
    await stopping.stop();
    expect(await state(port(), running.tripPlanId)).toMatchObject({ status: 'FAILED', failureCode: 'AI002', owner: null });
    expect(await state(port(), waiting.tripPlanId)).toMatchObject({ status: 'FAILED', failureCode: 'AI002' });
    expect(stopping.publishers.sent.filter((m) => m.channel === 'error').map((m) => m.payload.message)).toEqual([
      expect.stringMatching(/service stopped/) as string,
      expect.stringMatching(/service stopped/) as string,
    ]);
    expect(await days(port(), running.tripPlanId)).toHaveLength(1);
  });

  it('stop with takeover resume: the run is given back at once, with no message, and another runner finishes it', async () => {
    now = T0;
    const events = createInProcessEventBus(() => {});
    const stopping = runner({ events, planner: plannerOf({ holdAfter: 1 }), owner: 'stopping', takeover: 'resume' });
    const plan = await addPlan(port(), 'handover@example.com');
    await start(events, plan);
    await vi.waitFor(() => expect(generatedDays(stopping.publishers.sent)).toEqual([1]), POLL);
    await stopping.stop();
    expect(await state(port(), plan.tripPlanId)).toMatchObject({ status: 'GENERATING', owner: null, attempt: 1 });
    expect(stopping.publishers.sent.some((m) => m.channel === 'error')).toBe(false);
    const next = runner({ events: createInProcessEventBus(() => {}), planner: plannerOf(), owner: 'next', takeover: 'resume' });
    await vi.waitFor(async () => expect(await state(port(), plan.tripPlanId)).toMatchObject({ status: 'COMPLETED', attempt: 2 }), POLL);
    expect(generatedDays(next.publishers.sent)).toEqual([2, 3]);
  });
});
