// Runs the generation jobs of the plan rows (README, "Generation jobs on the plan row"): the same
// runner on every instance and both engines. It claims waiting jobs (fairness: nextGeneration.ts)
// when a start on this instance wakes it, when a run of its own ends, and every GENERATION_POLL_MS;
// it renews the leases of its runs every GENERATION_HEARTBEAT_MS (a lost lease aborts the run, and
// so does a lease that ran out by the run's own clock while the database did not answer); and it
// sweeps expired leases of any instance every GENERATION_SWEEP_MS (fail with AI002, or re-queue to
// resume). A cancel or delete made on this instance aborts the run here at once, or, when the job
// waits or runs elsewhere, is announced from here (that run stops at its next fenced write or
// heartbeat).
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { context } from '@opentelemetry/api';
import type { GenerationJobSettings } from '../config/config.js';
import type { DatabasePort } from '../db/databasePort.js';
import type { EventBus } from '../events/eventBus.js';
import { withTraceIds } from '../kernel/traceContext.js';
import type { Logger } from '../kernel/logger.js';
import type { GenerationOutcome, Metrics } from '../metrics/metricsRegistry.js';
import type { Publishers } from '../delivery/publishers.js';
import { Cancelled, LeaseLost, runClaimedGeneration, type ClaimedRunDeps, type RunOutcome } from './claimedRun.js';
import { claimGeneration, membersGenerating, renewLease, type ClaimedGeneration } from './generationLeases.js';
import { announceCancelled, announceFailure, LEASE_EXPIRED_MESSAGE, STOPPED_MESSAGE } from './generationMessages.js';
import { startGenerationSpan } from './generationSpans.js';
import { leaseTerm, type LeaseTerm } from './leaseTerm.js';
import { countWaitingGenerations, failWaitingGenerations, sweepExpiredLeases, type FailedGeneration } from './generationSweep.js';
import type { Planner } from './planner.js';

export interface GenerationRunnerDeps {
  port: DatabasePort;
  events: EventBus;
  planner: Planner;
  publishers: Publishers;
  log: Logger;
  clock: () => number;
  /** runs at once here (GENERATION_CONCURRENCY); 0: none, it only sweeps */
  concurrency: number;
  concurrencyPerMember: number;
  jobs: GenerationJobSettings;
  /** the lease owner; default hostname:pid:random */
  owner?: string;
  /**
   * A single-process engine (SQLite) fails the jobs still waiting when it stops: nobody else can
   * run them (openapi.yaml: a stop fails queued runs). On PostgreSQL they wait for other instances.
   */
  failWaitingOnStop: boolean;
  /** null or absent: metrics off */
  metrics?: Metrics | null;
}

export interface GenerationRunner {
  readonly owner: string;
  /** runs here; jobs waiting for a claim on any instance; how this runner's runs ended */
  stats(): Promise<{ running: number; queued: number; completed: number; failed: number; cancelled: number; lost: number; released: number }>;
  /** resolves when nothing runs here and the last look found nothing this runner may claim */
  idle(): Promise<void>;
  /** tests: stop renewing the leases, as a process frozen past its lease would */
  pauseHeartbeats(): void;
  /** Stops claiming and sweeping; runs here are given back (resume) or failed with AI002, then it resolves. */
  stop(): Promise<void>;
}

interface LocalRun {
  job: ClaimedGeneration;
  /** the lease by this instance's clock: the heartbeat and the run's fenced writes move it on */
  term: LeaseTerm;
  controller: AbortController;
  done: Promise<void>;
}

/** How a run's end is counted (trip_generations_total); a run given back at a stop has not ended. */
const OUTCOME_METRIC: Record<RunOutcome | 'cancelled', GenerationOutcome | null> = {
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  lost: 'taken_over',
  released: null,
};

export function defaultOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export function startGenerationRunner(deps: GenerationRunnerDeps): GenerationRunner {
  const { port, log, clock, jobs, publishers, metrics } = deps;
  const owner = deps.owner ?? defaultOwner();
  // With GENERATION_TAKEOVER=resume the waiting jobs stay for the next start of the instance.
  const failsWaitingOnStop = deps.failWaitingOnStop && jobs.takeover === 'fail';
  const running = new Map<number, LocalRun>();
  const lastStartedByMember = new Map<number, number>();
  const counts = { completed: 0, failed: 0, cancelled: 0, lost: 0, released: 0 };
  let starts = 0;
  let stopped = false;
  let heartbeatsPaused = false;
  /** a heartbeat's renewals are under way: the next one waits rather than queue more on a database that does not answer */
  let renewing = false;
  let passing: Promise<void> | null = null;
  let passAgain = false;
  /** the latest claim pass ended (nothing more to claim, or no free slot) with no wake since */
  let settled = false;
  let idleWaiters: (() => void)[] = [];

  const runDeps: ClaimedRunDeps = {
    port,
    planner: deps.planner,
    log,
    clock,
    leaseMs: jobs.leaseMs,
    resumable: (job) => jobs.takeover === 'resume' && job.lease.attempt < jobs.maxAttempts,
    metrics,
  };

  function notifyIdle(): void {
    if (running.size > 0 || passing || !settled) return;
    for (const resolve of idleWaiters.splice(0)) resolve();
  }

  function announceFailures(failed: FailedGeneration[], message: string): void {
    for (const plan of failed) announceFailure(publishers.forRun(plan, plan.token), clock, plan.chatRoomId, message);
  }

  function start(job: ClaimedGeneration): void {
    const { tripPlanId, memberId } = job.event;
    lastStartedByMember.set(memberId, ++starts);
    const controller = new AbortController();
    const term = leaseTerm(job.claimedAtMs, jobs.leaseMs);
    const { run, attempt } = job.lease;
    const runPublishers = publishers.forRun(job.event, { run, attempt });
    // The run's span continues the start request's trace (a no-op with tracing off); its ids are in
    // every log line of the run.
    const span = startGenerationSpan(job, owner);
    const runLog = withTraceIds(log, span.context);
    const done = context
      .with(span.context, () => runClaimedGeneration({ ...runDeps, log: runLog }, job, runPublishers, controller.signal, term))
      .catch((error: unknown): RunOutcome => {
        runLog.error({ err: error, tripPlanId }, 'generation run failed unexpectedly');
        return 'lost';
      })
      .then((outcome) => {
        span.end(outcome);
        running.delete(tripPlanId);
        metrics?.generationsRunning.dec();
        // A cancel or delete made here while the run still held the job: its CANCELLED is the
        // last message, after everything the run sent.
        const reason: unknown = controller.signal.reason;
        const ended = outcome === 'lost' && reason instanceof Cancelled && reason.reason !== 'shutdown' ? 'cancelled' : outcome;
        counts[ended]++;
        if (ended === 'cancelled') announceCancelled(runPublishers, clock);
        const counted = OUTCOME_METRIC[ended];
        if (counted) metrics?.generations.inc({ outcome: counted });
        wake();
      });
    running.set(tripPlanId, { job, term, controller, done });
    metrics?.generationsRunning.inc();
  }

  async function claimWhileFree(): Promise<void> {
    // A member with nothing generating (running or waiting, on any instance) counts as never started.
    const generating = await membersGenerating(port, [...lastStartedByMember.keys()]);
    for (const memberId of lastStartedByMember.keys()) if (!generating.has(memberId)) lastStartedByMember.delete(memberId);
    while (!stopped && running.size < deps.concurrency) {
      const job = await claimGeneration(port, {
        owner,
        nowMs: clock(),
        leaseMs: jobs.leaseMs,
        perMemberLimit: deps.concurrencyPerMember,
        runningHere: new Set(running.keys()),
        lastStartedByMember,
      });
      if (!job) return;
      if (stopped) {
        // Claimed while stopping: run it just to hand it back (or fail it) the usual way.
        start(job);
        running.get(job.lease.tripPlanId)!.controller.abort(new Cancelled('shutdown'));
        return;
      }
      start(job);
    }
  }

  /** One claim pass at a time; a wake during a pass makes another pass after it. */
  function wake(): void {
    if (stopped) return;
    settled = false;
    if (passing) {
      passAgain = true;
      return;
    }
    passing = claimWhileFree()
      .catch((error: unknown) => log.error({ err: error }, 'claiming generations failed; the next poll tries again'))
      .finally(() => {
        passing = null;
        if (passAgain && !stopped) {
          passAgain = false;
          wake();
        } else {
          settled = true;
          notifyIdle();
        }
      });
  }

  async function heartbeat(): Promise<void> {
    if (heartbeatsPaused) return;
    // A lease this instance could not renew in time is over: the sweepers of other instances see it
    // run out too, and the run's next write would be refused anyway.
    for (const run of running.values()) if (clock() > run.term.endsAtMs()) run.controller.abort(new LeaseLost());
    if (renewing) return;
    renewing = true;
    try {
      for (const run of [...running.values()]) {
        if (run.controller.signal.aborted) continue;
        const sentAtMs = clock();
        try {
          if (await renewLease(port, run.job.lease, sentAtMs, jobs.leaseMs)) run.term.renewed(sentAtMs);
          else run.controller.abort(new LeaseLost());
        } catch (error) {
          // The database does not answer: the run retries its own steps while the lease holds, and
          // the next heartbeat tries again.
          log.warn({ err: error, tripPlanId: run.job.lease.tripPlanId }, 'could not renew a generation lease');
        }
      }
    } finally {
      renewing = false;
    }
  }

  async function sweep(): Promise<void> {
    try {
      const { failed, requeued } = await sweepExpiredLeases(port, { nowMs: clock(), takeover: jobs.takeover, maxAttempts: jobs.maxAttempts });
      metrics?.leaseTakeovers.inc(failed.length + requeued.length);
      if (failed.length > 0) log.warn({ tripPlanIds: failed.map((f) => f.tripPlanId) }, 'generations whose lease ran out marked FAILED (AI002)');
      if (requeued.length > 0) {
        log.warn({ tripPlanIds: requeued }, 'generations whose lease ran out wait to be resumed');
        wake();
      }
      announceFailures(failed, LEASE_EXPIRED_MESSAGE);
    } catch (error) {
      log.warn({ err: error }, 'sweeping expired generation leases failed; the next sweep tries again');
    }
  }

  async function failWaiting(): Promise<void> {
    try {
      announceFailures(await failWaitingGenerations(port, clock()), STOPPED_MESSAGE);
    } catch (error) {
      log.error({ err: error }, 'could not fail the generations waiting at shutdown');
    }
  }

  const timers = [
    setInterval(() => void heartbeat(), jobs.heartbeatMs),
    setInterval(() => void sweep(), jobs.sweepMs),
    setInterval(() => {
      if (running.size < deps.concurrency) wake();
    }, jobs.pollMs),
  ];
  for (const timer of timers) timer.unref();

  deps.events.subscribe('tripPlanGenerationRequested', () => {
    if (!stopped) return wake();
    // A start accepted while this single-process instance stops: nobody would ever run it.
    if (failsWaitingOnStop) return failWaiting();
  });
  deps.events.subscribe('tripPlanGenerationCancelRequested', (event) => {
    const local = running.get(event.tripPlanId);
    if (local) return local.controller.abort(new Cancelled(event.reason));
    counts.cancelled++;
    // The job waits, or runs elsewhere (that run stops at its next fenced write or heartbeat, and
    // what it sends meanwhile is refused: this message closes the run).
    announceCancelled(publishers.forRun(event, { run: event.run, attempt: event.attempt }), clock);
  });

  void sweep().finally(() => wake());

  return {
    owner,
    async stats() {
      return { running: running.size, queued: await countWaitingGenerations(port), ...counts };
    },
    idle: () =>
      new Promise((resolve) => {
        idleWaiters.push(resolve);
        notifyIdle();
      }),
    pauseHeartbeats() {
      heartbeatsPaused = true;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await passing;
      for (const run of running.values()) run.controller.abort(new Cancelled('shutdown'));
      await Promise.allSettled([...running.values()].map((r) => r.done));
      if (failsWaitingOnStop) await failWaiting();
      // Their AI002 is in the logs before the caller closes the connections that should carry it.
      await publishers.settled();
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    },
  };
}
