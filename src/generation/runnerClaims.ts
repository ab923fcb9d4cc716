// The runner's claims: a pass claims waiting jobs (fairness: nextGeneration.ts) while this instance
// has a free slot, and starts each. A start on this instance, the end of a run of its own, a
// re-queued job and the poll wake it; one pass runs at a time.
import { claimGeneration, membersGenerating } from './generationLeases.js';
import { Cancelled } from './claimedRun.js';
import { startRun } from './runnerRuns.js';
import type { RunnerState } from './runnerState.js';

/** Resolves the callers of idle() once nothing runs here and the latest pass found nothing to claim. */
export function notifyIdle(state: RunnerState): void {
  if (state.running.size > 0 || state.passing || !state.settled) return;
  for (const resolve of state.idleWaiters.splice(0)) resolve();
}

/** One claim pass at a time; a wake during a pass makes another pass after it. */
export function wake(state: RunnerState): void {
  if (state.stopped) return;
  state.settled = false;
  if (state.passing) {
    state.passAgain = true;
    return;
  }
  state.passing = claimWhileFree(state)
    .catch((error: unknown) => state.log.error({ err: error }, 'claiming generations failed; the next poll tries again'))
    .finally(() => {
      state.passing = null;
      if (state.passAgain && !state.stopped) {
        state.passAgain = false;
        wake(state);
      } else {
        state.settled = true;
        notifyIdle(state);
      }
    });
}

async function claimWhileFree(state: RunnerState): Promise<void> {
  const { port, running, lastStartedByMember } = state;
  // A member with nothing generating (running or waiting, on any instance) counts as never started.
  const generating = await membersGenerating(port, [...lastStartedByMember.keys()]);
  for (const memberId of lastStartedByMember.keys()) if (!generating.has(memberId)) lastStartedByMember.delete(memberId);
  while (!state.stopped && running.size < state.concurrency) {
    const job = await claimGeneration(port, {
      owner: state.owner,
      nowMs: state.clock(),
      leaseMs: state.jobs.leaseMs,
      perMemberLimit: state.concurrencyPerMember,
      runningHere: new Set(running.keys()),
      lastStartedByMember,
    });
    if (!job) return;
    if (state.stopped) {
      // Claimed while stopping: run it just to hand it back (or fail it) the usual way.
      startRun(state, job, () => wake(state));
      running.get(job.lease.tripPlanId)!.controller.abort(new Cancelled('shutdown'));
      return;
    }
    startRun(state, job, () => wake(state));
  }
}
