// Runs the generation jobs of the plan rows (docs/design/scale-out.md, "Generation jobs on the plan row"): the same
// runner on every instance and both engines. It claims waiting jobs (fairness: nextGeneration.ts)
// when a start on this instance wakes it, when a run of its own ends, and every GENERATION_POLL_MS;
// it renews the leases of its runs every GENERATION_HEARTBEAT_MS (a lost lease aborts the run, and
// so does a lease that ran out by the run's own clock while the database did not answer); and it
// sweeps expired leases of any instance every GENERATION_SWEEP_MS (fail with AI002, or re-queue to
// resume). A cancel or delete made on this instance aborts the run here at once, or, when the job
// waits or runs elsewhere, is announced from here (that run stops at its next fenced write or
// heartbeat).
// The runner's state is one record (runnerState.ts); its claims (runnerClaims.ts), its runs
// (runnerRuns.ts), its heartbeat (runnerHeartbeat.ts) and its sweeps (runnerSweep.ts) each take it.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { GenerationJobSettings } from '../config/config.js';
import type { DatabasePort } from '../db/databasePort.js';
import type { DomainEvents, EventBus } from '../events/eventBus.js';
import type { Logger } from '../kernel/logger.js';
import type { Metrics } from '../metrics/metricsRegistry.js';
import type { Publishers } from '../delivery/publishers.js';
import { Cancelled } from './claimedRun.js';
import { announceCancelled } from './generationMessages.js';
import { countWaitingGenerations } from './generationSweep.js';
import type { Planner } from './planner.js';
import { notifyIdle, wake } from './runnerClaims.js';
import { heartbeat } from './runnerHeartbeat.js';
import type { RunnerState } from './runnerState.js';
import { failWaiting, sweep } from './runnerSweep.js';

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

export function defaultOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export function startGenerationRunner(deps: GenerationRunnerDeps): GenerationRunner {
  const state = runnerStateOf(deps);
  const timers = startTimers(state);
  deps.events.subscribe('tripPlanGenerationRequested', () => {
    if (!state.stopped) return wake(state);
    // A start accepted while this single-process instance stops: nobody would ever run it.
    if (state.failsWaitingOnStop) return failWaiting(state);
  });
  deps.events.subscribe('tripPlanGenerationCancelRequested', (event) => cancelRequested(state, event));

  void sweep(state).finally(() => wake(state));

  return {
    owner: state.owner,
    async stats() {
      return { running: state.running.size, queued: await countWaitingGenerations(state.port), ...state.counts };
    },
    idle: () =>
      new Promise((resolve) => {
        state.idleWaiters.push(resolve);
        notifyIdle(state);
      }),
    pauseHeartbeats() {
      state.heartbeatsPaused = true;
    },
    stop: () => stopRunner(state, timers),
  };
}

function runnerStateOf(deps: GenerationRunnerDeps): RunnerState {
  const { port, log, clock, jobs } = deps;
  return {
    owner: deps.owner ?? defaultOwner(),
    port,
    log,
    clock,
    jobs,
    publishers: deps.publishers,
    metrics: deps.metrics,
    concurrency: deps.concurrency,
    concurrencyPerMember: deps.concurrencyPerMember,
    // With GENERATION_TAKEOVER=resume the waiting jobs stay for the next start of the instance.
    failsWaitingOnStop: deps.failWaitingOnStop && jobs.takeover === 'fail',
    runDeps: {
      port,
      planner: deps.planner,
      log,
      clock,
      leaseMs: jobs.leaseMs,
      resumable: (job) => jobs.takeover === 'resume' && job.lease.attempt < jobs.maxAttempts,
      metrics: deps.metrics,
    },
    running: new Map(),
    lastStartedByMember: new Map(),
    counts: { completed: 0, failed: 0, cancelled: 0, lost: 0, released: 0 },
    starts: 0,
    stopped: false,
    heartbeatsPaused: false,
    renewing: false,
    passing: null,
    passAgain: false,
    settled: false,
    idleWaiters: [],
  };
}

/** The heartbeat, the sweep and the poll. */
function startTimers(state: RunnerState): NodeJS.Timeout[] {
  const { jobs } = state;
  const timers = [
    setInterval(() => void heartbeat(state), jobs.heartbeatMs),
    setInterval(() => void sweep(state), jobs.sweepMs),
    setInterval(() => {
      if (state.running.size < state.concurrency) wake(state);
    }, jobs.pollMs),
  ];
  for (const timer of timers) timer.unref();
  return timers;
}

function cancelRequested(state: RunnerState, event: DomainEvents['tripPlanGenerationCancelRequested']): void {
  const local = state.running.get(event.tripPlanId);
  if (local) return local.controller.abort(new Cancelled(event.reason));
  state.counts.cancelled++;
  // The job waits, or runs elsewhere (that run stops at its next fenced write or heartbeat, and
  // what it sends meanwhile is refused: this message closes the run).
  announceCancelled(state.publishers.forRun(event, { run: event.run, attempt: event.attempt }), state.clock);
}

async function stopRunner(state: RunnerState, timers: NodeJS.Timeout[]): Promise<void> {
  const { running } = state;
  if (state.stopped) return;
  state.stopped = true;
  for (const timer of timers) clearInterval(timer);
  await state.passing;
  for (const run of running.values()) run.controller.abort(new Cancelled('shutdown'));
  await Promise.allSettled([...running.values()].map((r) => r.done));
  if (state.failsWaitingOnStop) await failWaiting(state);
  // Their AI002 is in the logs before the caller closes the connections that should carry it.
  await state.publishers.settled();
  const waiters = state.idleWaiters;
  state.idleWaiters = [];
  for (const resolve of waiters) resolve();
}
