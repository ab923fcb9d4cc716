// The runner's sweeps: every GENERATION_SWEEP_MS the expired leases of any instance (fail with
// AI002, or re-queue to resume); and, when a single-process instance stops, the jobs still waiting.
import { announceFailure, LEASE_EXPIRED_MESSAGE, STOPPED_MESSAGE } from './generationMessages.js';
import { failWaitingGenerations, sweepExpiredLeases, type FailedGeneration } from './generationSweep.js';
import { wake } from './runnerClaims.js';
import type { RunnerState } from './runnerState.js';

function announceFailures(state: RunnerState, failed: FailedGeneration[], message: string): void {
  for (const plan of failed) announceFailure(state.publishers.forRun(plan, plan.token), state.clock, plan.chatRoomId, message);
}

export async function sweep(state: RunnerState): Promise<void> {
  const { jobs, log } = state;
  try {
    const { failed, requeued } = await sweepExpiredLeases(state.port, { nowMs: state.clock(), takeover: jobs.takeover, maxAttempts: jobs.maxAttempts });
    state.metrics?.leaseTakeovers.inc(failed.length + requeued.length);
    if (failed.length > 0) log.warn({ tripPlanIds: failed.map((f) => f.tripPlanId) }, 'generations whose lease ran out marked FAILED (AI002)');
    if (requeued.length > 0) {
      log.warn({ tripPlanIds: requeued }, 'generations whose lease ran out wait to be resumed');
      wake(state);
    }
    announceFailures(state, failed, LEASE_EXPIRED_MESSAGE);
  } catch (error) {
    log.warn({ err: error }, 'sweeping expired generation leases failed; the next sweep tries again');
  }
}

export async function failWaiting(state: RunnerState): Promise<void> {
  try {
    announceFailures(state, await failWaitingGenerations(state.port, state.clock()), STOPPED_MESSAGE);
  } catch (error) {
    state.log.error({ err: error }, 'could not fail the generations waiting at shutdown');
  }
}
