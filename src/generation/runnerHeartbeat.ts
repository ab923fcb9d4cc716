// The runner's heartbeat (every GENERATION_HEARTBEAT_MS): it renews the leases of the runs here. A
// lease it lost aborts its run, and so does one that ran out by the run's own clock while the
// database did not answer.
import { LeaseLost } from './claimedRun.js';
import { renewLease } from './generationLeases.js';
import type { RunnerState } from './runnerState.js';

export async function heartbeat(state: RunnerState): Promise<void> {
  const { running, clock } = state;
  if (state.heartbeatsPaused) return;
  // A lease this instance could not renew in time is over: the sweepers of other instances see it
  // run out too, and the run's next write would be refused anyway.
  for (const run of running.values()) if (clock() > run.term.endsAtMs()) run.controller.abort(new LeaseLost());
  if (state.renewing) return;
  state.renewing = true;
  try {
    for (const run of [...running.values()]) {
      if (run.controller.signal.aborted) continue;
      const sentAtMs = clock();
      try {
        if (await renewLease(state.port, run.job.lease, sentAtMs, state.jobs.leaseMs)) run.term.renewed(sentAtMs);
        else run.controller.abort(new LeaseLost());
      } catch (error) {
        // The database does not answer: the run retries its own steps while the lease holds, and
        // the next heartbeat tries again.
        state.log.warn({ err: error, tripPlanId: run.job.lease.tripPlanId }, 'could not renew a generation lease');
      }
    }
  } finally {
    state.renewing = false;
  }
}
