// One run of a claimed generation job, in the documented order (asyncapi.yaml,
// receiveScheduleUpdates): for each day, the day is saved in its own fenced transaction, then
// schedule DAILY_PLAN_GENERATED, then the day's summary on the chat (chunks, then the full text,
// also saved fenced); then the plan is COMPLETED and the chat says so. A resumed run (an earlier
// attempt saved days 1..k) skips those days: they keep their ids and are not announced again; a
// saved day whose summary that attempt did not store (it stopped in between) is summarised first,
// from the day as saved, so the chat history holds one summary per day, in day order.
// Every write is fenced by the lease (generationLeases.ts): a run that lost it writes nothing more,
// publishes nothing more and ends 'lost' (whoever took the job over, or cancelled it, speaks for it).
// A step that meets a transient storage failure is tried again while the lease holds (storageRetry.ts).
import type { DatabasePort } from '../db/databasePort.js';
import { storageUnavailable } from '../db/storageFailure.js';
import type { PlannedDay } from '../itinerary/plannedDay.js';
import type { Logger } from '../kernel/logger.js';
import type { Metrics } from '../metrics/metricsRegistry.js';
import type { RunPublishers } from '../delivery/publishers.js';
import { findDay, type DayWithStops } from '../trips/dailyPlanRepository.js';
import { toDailyPlanResponse } from '../trips/tripPlanMappers.js';
import { inDaySpan } from './generationSpans.js';
import { saveDaySummary, saveGeneratedDay, type FenceAt } from './fencedRunWrites.js';
import { endedByAttempt, finishGeneration, releaseLease, type ClaimedGeneration, type Fenced } from './generationLeases.js';
import { announceFailure, STOPPED_MESSAGE } from './generationMessages.js';
import type { LeaseTerm } from './leaseTerm.js';
import { PlannerError, type Planner, type PlanRequest } from './planner.js';
import { retryingWhileLeaseHolds, retryPolicyFor, StorageOutlastedLease, type RetryStep } from './storageRetry.js';

export interface ClaimedRunDeps {
  port: DatabasePort;
  planner: Planner;
  log: Logger;
  clock: () => number;
  leaseMs: number;
  /** GENERATION_TAKEOVER=resume and attempts left: a stop gives the job back instead of failing it */
  resumable(job: ClaimedGeneration): boolean;
  /** null or absent: metrics off */
  metrics?: Metrics | null;
}

/** Why a run was aborted from outside: the reason of its AbortSignal. */
export class Cancelled extends Error {
  constructor(readonly reason: 'cancel' | 'delete' | 'shutdown') {
    super(`generation ${reason}`);
  }
}

/** The lease is gone: cancelled or deleted elsewhere, taken over, or ran out. */
export class LeaseLost extends Error {
  constructor() {
    super('generation lease lost');
  }
}

/**
 * completed / failed (AI002 sent): the run's own end. lost: it stopped writing because the lease
 * went (a cancel or delete included). released: a stop gave the job back for another instance.
 */
export type RunOutcome = 'completed' | 'failed' | 'lost' | 'released';

const UNSAVABLE_MESSAGE = 'A day could not be saved (the storage cannot take writes); please try again later.';
const FAILED_MESSAGE = 'The itinerary could not be generated. Please try again.';

/** The day as a planner would give it, from the day as saved: what a resumed run summarises. */
function plannedDayOf(saved: DayWithStops): PlannedDay {
  const { dayNumber, date, title, description } = saved;
  const stops = saved.stops.map(({ placeId, category, travelTime, travelDistance }) => ({ placeId, category, travelTime, travelDistance }));
  return { dayNumber, date, title, description, stops };
}

/**
 * The planner's days. A transient storage failure of the planner's own reads (the catalogue, the
 * prompts) starts it over while the lease holds; the caller skips the days it has already saved.
 */
async function* plannedDays(planner: Planner, request: PlanRequest, signal: AbortSignal, retrying: RetryStep): AsyncGenerator<PlannedDay> {
  let planning = planner.plan(request, signal)[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await retrying('planning', (retry) => {
        if (retry > 0) planning = planner.plan(request, signal)[Symbol.asyncIterator]();
        return planning.next();
      });
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await planning.return?.();
  }
}

/** What the steps of one run share: what it was given, and the days saved so far. */
interface RunState {
  readonly deps: ClaimedRunDeps;
  readonly job: ClaimedGeneration;
  readonly publishers: RunPublishers;
  readonly signal: AbortSignal;
  readonly term: LeaseTerm;
  readonly request: PlanRequest;
  readonly retrying: RetryStep;
  /** the days saved, by this attempt or an earlier one */
  days: number;
}

/**
 * `publishers` are the run's (its lease's run and attempt): what a superseded attempt sends is
 * refused. `term` is the lease as the run's clock sees it, moved on by every renewal that succeeds.
 */
export async function runClaimedGeneration(
  deps: ClaimedRunDeps,
  job: ClaimedGeneration,
  publishers: RunPublishers,
  signal: AbortSignal,
  term: LeaseTerm,
): Promise<RunOutcome> {
  const { clock, leaseMs, log } = deps;
  const { tripPlanId, memberId } = job.event;
  const request: PlanRequest = { tripPlanId, memberId, ...job.event.request, transportation: job.event.request.transportation ?? 'PUBLIC_TRANSIT' };
  const retrying = retryingWhileLeaseHolds({ clock, term, policy: retryPolicyFor(leaseMs), signal, log });
  const run: RunState = { deps, job, publishers, signal, term, request, retrying, days: job.savedDays };
  try {
    await summariseUnsummarisedDays(run);
    await generateDays(run);
    await markCompleted(run);
    publishers.chat({
      message: `Your ${run.days}-day itinerary is ready.`,
      isComplete: true,
      timestamp: now(run),
      messageStreamType: 'COMPLETED',
    });
    log.info({ tripPlanId, days: run.days, attempt: job.lease.attempt }, 'generation completed');
    return 'completed';
  } catch (error) {
    return endedBy(run, error);
  }
}

const now = (run: RunState) => new Date(run.deps.clock()).toISOString();

function stillOurs(run: RunState): void {
  if (run.signal.aborted) throw run.signal.reason;
}

/** A write fenced by the lease, tried again while it holds; a write the fence refused loses the lease. */
function fenced<T>(run: RunState, step: string, write: (at: FenceAt) => Promise<Fenced<T>>): Promise<T> {
  const { clock, leaseMs, metrics } = run.deps;
  return run.retrying(step, async () => {
    stillOurs(run);
    const nowMs = clock();
    const result = await write({ lease: run.job.lease, nowMs, leaseMs });
    if (!result.held) {
      metrics?.fencedWrites.inc();
      throw new LeaseLost();
    }
    run.term.renewed(nowMs);
    stillOurs(run);
    return result.value;
  });
}

/** The day's summary on the chat (chunks, then stored, then the full text); a retried summary streams again from its start. */
async function summarise(run: RunState, day: PlannedDay): Promise<void> {
  const { deps, publishers } = run;
  const summary = await run.retrying(`summary of day ${day.dayNumber}`, async () => {
    let text = '';
    for await (const chunk of deps.planner.summarize(day, run.request, run.signal)) {
      stillOurs(run);
      text += chunk;
      publishers.chat({ message: chunk, isComplete: false, timestamp: now(run), messageStreamType: 'CHAT' });
    }
    return text;
  });
  const { dayNumber } = day;
  const { chatRoomId } = run.job.event;
  await fenced(run, `summary of day ${dayNumber} saved`, (at) =>
    saveDaySummary(deps.port, at, { chatRoomId, dayNumber, content: summary, createdAt: deps.clock() }),
  );
  publishers.chat({ message: summary, isComplete: true, timestamp: now(run), messageStreamType: 'CHAT' });
}

/** An earlier attempt announced these days and stopped before their summaries were stored. */
async function summariseUnsummarisedDays(run: RunState): Promise<void> {
  const { tripPlanId } = run.job.event;
  for (const dayNumber of run.job.unsummarisedDays) {
    const saved = await run.retrying(`day ${dayNumber} read back`, () => findDay(run.deps.port, tripPlanId, dayNumber));
    if (saved) await inDaySpan(dayNumber, new Date(), () => summarise(run, plannedDayOf(saved)));
  }
}

/** The planner's days not saved yet: each saved, announced and summarised, in its own span. */
async function generateDays(run: RunState): Promise<void> {
  /** when the run began waiting for the planner's next day: where that day's span starts */
  let dayAsked = new Date();
  for await (const day of plannedDays(run.deps.planner, run.request, run.signal, run.retrying)) {
    stillOurs(run);
    // Saved by an earlier attempt, or before the planner was started over.
    if (day.dayNumber <= run.days) {
      dayAsked = new Date();
      continue;
    }
    await inDaySpan(day.dayNumber, dayAsked, () => saveDay(run, day));
    dayAsked = new Date();
  }
}

async function saveDay(run: RunState, day: PlannedDay): Promise<void> {
  const { deps, job } = run;
  const saved = await fenced(run, `day ${day.dayNumber} saved`, (at) => saveGeneratedDay(deps.port, at, day, run.request.transportation));
  run.days++;
  // Time to the first day: only a first attempt's, whose queue time is when its start was accepted.
  if (run.days === 1 && job.lease.attempt === 1 && job.queuedAtMs > 0) deps.metrics?.firstDay.observe(Math.max(0, deps.clock() - job.queuedAtMs) / 1000);
  run.publishers.schedule({ type: 'DAILY_PLAN_GENERATED', tripPlanId: job.event.tripPlanId, dailyPlan: toDailyPlanResponse(saved) });
  await summarise(run, day);
}

async function markCompleted(run: RunState): Promise<void> {
  const { port, clock, metrics } = run.deps;
  const { lease } = run.job;
  await run.retrying('finish', async (retry) => {
    stillOurs(run);
    if (await finishGeneration(port, lease, clock(), 'COMPLETED')) return;
    // An earlier try may have committed and lost its answer: the run then ended, by this attempt.
    if (retry > 0 && (await endedByAttempt(port, lease, 'COMPLETED'))) return;
    metrics?.fencedWrites.inc();
    throw new LeaseLost();
  });
}

/** How a run that did not complete ends: after a stop, a lost lease, an outlasting outage or a failure. */
function endedBy(run: RunState, error: unknown): Promise<RunOutcome> | RunOutcome {
  const { deps, job, publishers, signal, days } = run;
  const { log } = deps;
  const { tripPlanId } = job.event;
  const reason: unknown = signal.aborted ? signal.reason : error;
  if (reason instanceof Cancelled && reason.reason === 'shutdown') return stop(deps, job, publishers, days);
  if (reason instanceof Cancelled || reason instanceof LeaseLost) {
    log.info({ tripPlanId, days, why: reason.message }, 'generation ended without its lease');
    return 'lost';
  }
  if (reason instanceof StorageOutlastedLease) {
    // Its lease runs out; a sweeper (of any instance) fails the job or lets another claim resume it.
    log.warn({ tripPlanId, days, step: reason.step }, 'generation stopped writing: the storage stayed unavailable until its lease ran out');
    return 'lost';
  }
  log.error({ err: error, tripPlanId }, 'generation failed');
  const message = error instanceof PlannerError ? error.message : storageUnavailable(error) ? UNSAVABLE_MESSAGE : FAILED_MESSAGE;
  return fail(deps, job, publishers, message);
}

/** FAILED with AI002, unless the lease is already gone (then whoever has the job speaks for it). */
async function fail(deps: ClaimedRunDeps, job: ClaimedGeneration, publishers: RunPublishers, message: string): Promise<RunOutcome> {
  const { tripPlanId } = job.lease;
  try {
    if (!(await finishGeneration(deps.port, job.lease, deps.clock(), 'FAILED'))) return 'lost';
  } catch (error) {
    // The lease stays ours until it runs out; the sweeper then fails the plan in the database.
    deps.log.error({ err: error, tripPlanId }, 'could not mark the generation FAILED; the sweeper will once its lease runs out');
  }
  announceFailure(publishers, deps.clock, job.event.chatRoomId, message);
  return 'failed';
}

/** The service stops: give the job back when another attempt may resume it, else fail it now. */
async function stop(deps: ClaimedRunDeps, job: ClaimedGeneration, publishers: RunPublishers, days: number): Promise<RunOutcome> {
  const { tripPlanId } = job.lease;
  if (deps.resumable(job)) {
    try {
      if (await releaseLease(deps.port, job.lease, deps.clock())) {
        deps.log.warn({ tripPlanId, days }, 'generation given back by shutdown; another claim resumes it');
        return 'released';
      }
      return 'lost';
    } catch (error) {
      deps.log.error({ err: error, tripPlanId }, 'could not give the generation back; it is taken over once its lease runs out');
      return 'lost';
    }
  }
  deps.log.warn({ tripPlanId, days }, 'generation stopped by shutdown');
  return fail(deps, job, publishers, STOPPED_MESSAGE);
}
