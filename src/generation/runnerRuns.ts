// A job the runner claimed, run here: in its own span and logger, with the run's publishers; when it
// ends it is counted (and measured), and a cancel or delete made here gets its CANCELLED.
import { context } from '@opentelemetry/api';
import { withTraceIds } from '../kernel/traceContext.js';
import type { GenerationOutcome } from '../metrics/metricsRegistry.js';
import { Cancelled, runClaimedGeneration, type RunOutcome } from './claimedRun.js';
import type { ClaimedGeneration } from './generationLeases.js';
import { announceCancelled } from './generationMessages.js';
import { startGenerationSpan } from './generationSpans.js';
import { leaseTerm } from './leaseTerm.js';
import type { RunnerState } from './runnerState.js';

/** How a run's end is counted (trip_generations_total); a run given back at a stop has not ended. */
const OUTCOME_METRIC: Record<RunOutcome | 'cancelled', GenerationOutcome | null> = {
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  lost: 'taken_over',
  released: null,
};

/** Starts the run of `job` here; `ended` is called once it has ended and been counted. */
export function startRun(state: RunnerState, job: ClaimedGeneration, ended: () => void): void {
  const { publishers, clock, metrics } = state;
  const { tripPlanId, memberId } = job.event;
  state.lastStartedByMember.set(memberId, ++state.starts);
  const controller = new AbortController();
  const term = leaseTerm(job.claimedAtMs, state.jobs.leaseMs);
  const { run, attempt } = job.lease;
  const runPublishers = publishers.forRun(job.event, { run, attempt });
  // The run's span continues the start request's trace (a no-op with tracing off); its ids are in
  // every log line of the run.
  const span = startGenerationSpan(job, state.owner);
  const runLog = withTraceIds(state.log, span.context);
  const done = context
    .with(span.context, () => runClaimedGeneration({ ...state.runDeps, log: runLog }, job, runPublishers, controller.signal, term))
    .catch((error: unknown): RunOutcome => {
      runLog.error({ err: error, tripPlanId }, 'generation run failed unexpectedly');
      return 'lost';
    })
    .then((outcome) => {
      span.end(outcome);
      state.running.delete(tripPlanId);
      metrics?.generationsRunning.dec();
      // A cancel or delete made here while the run still held the job: its CANCELLED is the
      // last message, after everything the run sent.
      const reason: unknown = controller.signal.reason;
      const endedAs = outcome === 'lost' && reason instanceof Cancelled && reason.reason !== 'shutdown' ? 'cancelled' : outcome;
      state.counts[endedAs]++;
      if (endedAs === 'cancelled') announceCancelled(runPublishers, clock);
      const counted = OUTCOME_METRIC[endedAs];
      if (counted) metrics?.generations.inc({ outcome: counted });
      ended();
    });
  state.running.set(tripPlanId, { job, term, controller, done });
  metrics?.generationsRunning.inc();
}
