// A run's step (a fenced write, the finish, a read the run needs, the planner's own reads) that
// meets a storage failure a retry may get past (transientStorageFailure: the database unreachable,
// a connection reset, the server restarting or out of connections, SQLite busy) is tried again with
// exponential backoff and jitter, the way job queues retry a failed job (graphile-worker, pg-boss),
// but only while the run still holds its lease by its own clock (leaseTerm.ts), less a margin for
// the clocks of the other instances, whose sweepers judge the lease by theirs. A longer outage ends
// the run without a word (StorageOutlastedLease): its lease runs out, and a sweeper fails the job
// with AI002 or lets another claim resume it (GENERATION_TAKEOVER), as for an instance that died.
// Everything follows from GENERATION_LEASE_MS; a retried step must be idempotent (fencedRunWrites.ts).
import { storageFailureCode, storageUnavailableReason, transientStorageFailure } from '../db/storageFailure.js';
import type { Logger } from '../kernel/logger.js';
import { abortableDelay } from './abortableDelay.js';
import type { LeaseTerm } from './leaseTerm.js';

/** The storage stayed unavailable until the run's lease was about to run out. */
export class StorageOutlastedLease extends Error {
  constructor(
    readonly step: string,
    options: { cause: unknown },
  ) {
    super(`the storage stayed unavailable until the lease ran out (${step})`, options);
  }
}

export interface RetryPolicy {
  firstDelayMs: number;
  maxDelayMs: number;
  /** no try starts later than this before the lease ends by the run's clock */
  marginMs: number;
}

/** Derived from the lease: 100 ms doubling up to 2 s (shorter for short leases), a margin of a tenth of the lease. */
export function retryPolicyFor(leaseMs: number): RetryPolicy {
  return { firstDelayMs: Math.min(100, leaseMs / 50), maxDelayMs: Math.min(2000, leaseMs / 10), marginMs: leaseMs / 10 };
}

/** The wait before try `retry` (1, 2, ...): the backoff's step, its upper half drawn at random so that runs do not retry in step. */
export function retryDelayMs(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** (retry - 1));
  return step / 2 + (random() * step) / 2;
}

export interface StorageRetryDeps {
  clock: () => number;
  term: LeaseTerm;
  policy: RetryPolicy;
  /** the run's: a cancel or a lost lease ends the wait */
  signal: AbortSignal;
  log: Logger;
  random?: () => number;
}

/** Runs `attempt` (given the number of tries before it), again after each transient storage failure while the lease holds. */
export type RetryStep = <T>(step: string, attempt: (retry: number) => Promise<T>) => Promise<T>;

export function retryingWhileLeaseHolds(deps: StorageRetryDeps): RetryStep {
  const { clock, term, policy, signal, log } = deps;
  return async (step, attempt) => {
    for (let retry = 0; ; retry++) {
      try {
        return await attempt(retry);
      } catch (error) {
        // A cancel or a lost lease says why the step ended better than the failure it cut short.
        if (signal.aborted) throw signal.reason;
        if (!transientStorageFailure(error)) throw error;
        const delayMs = retryDelayMs(policy, retry + 1, deps.random);
        const details = { step, retry: retry + 1, code: storageFailureCode(error), reason: storageUnavailableReason(error) };
        if (clock() + delayMs > term.endsAtMs() - policy.marginMs) {
          log.warn(
            { ...details, leaseEndsAt: new Date(term.endsAtMs()).toISOString() },
            'storage still unavailable as the lease runs out; the run stops writing',
          );
          throw new StorageOutlastedLease(step, { cause: error });
        }
        log.warn({ ...details, delayMs: Math.round(delayMs) }, 'storage unavailable; the step is tried again while the lease holds');
        await abortableDelay(delayMs, signal);
      }
    }
  };
}
