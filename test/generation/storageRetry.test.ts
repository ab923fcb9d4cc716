// The retry of a run's step (src/generation/storageRetry.ts): a transient storage failure is tried
// again with a growing, jittered wait while the lease holds by the run's clock; anything else, a
// lease about to run out, or an aborted run ends the step at once.
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/kernel/logger.js';
import { leaseTerm } from '../../src/generation/leaseTerm.js';
import { retryDelayMs, retryingWhileLeaseHolds, retryPolicyFor, StorageOutlastedLease } from '../../src/generation/storageRetry.js';

const LEASE_MS = 1000;
const reset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });

function retrying(options: { now?: () => number; signal?: AbortSignal; claimedAtMs?: number } = {}) {
  const clock = options.now ?? (() => 0);
  const term = leaseTerm(options.claimedAtMs ?? 0, LEASE_MS);
  const retry = retryingWhileLeaseHolds({
    clock,
    term,
    policy: retryPolicyFor(LEASE_MS),
    signal: options.signal ?? new AbortController().signal,
    log: createLogger('silent'),
  });
  return { retry, term };
}

/** A step that fails with `failures` in turn, then answers 'done'; the tries it was given. */
function failingStep(failures: Error[]) {
  const tries: number[] = [];
  return {
    tries,
    attempt: (retry: number) => {
      tries.push(retry);
      const failure = failures.shift();
      return failure ? Promise.reject(failure) : Promise.resolve('done');
    },
  };
}

describe('retrying a run step while its lease holds', () => {
  it('tries a transient failure again (a reset, a connect timeout, a server restarting, SQLite busy) until the step succeeds', async () => {
    const step = failingStep([
      reset(),
      new Error('timeout exceeded when trying to connect'),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      new BetterSqlite3.SqliteError('database is locked', 'SQLITE_BUSY'),
    ]);
    expect(await retrying().retry('day 1 saved', step.attempt)).toBe('done');
    expect(step.tries).toEqual([0, 1, 2, 3, 4]);
  });

  it('throws at once what a retry does not help: a full disk, a read-only database, a constraint, a bug', async () => {
    for (const failure of [
      new BetterSqlite3.SqliteError('database or disk is full', 'SQLITE_FULL'),
      Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' }),
      Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }),
      new TypeError('undefined is not a function'),
    ]) {
      const step = failingStep([failure]);
      await expect(retrying().retry('day 1 saved', step.attempt)).rejects.toBe(failure);
      expect(step.tries).toEqual([0]);
    }
  });

  it('stops when the next try would come after the lease ends by the run’s clock, without trying again', async () => {
    const failure = reset();
    const step = failingStep([failure, reset()]);
    // Claimed 950 ms ago: the lease (1000 ms) minus its margin (a tenth) has run out.
    const { retry } = retrying({ now: () => 950 });
    const stopped = await retry('day 2 saved', step.attempt).catch((error: unknown) => error);
    expect(stopped).toBeInstanceOf(StorageOutlastedLease);
    expect(stopped).toMatchObject({ step: 'day 2 saved', cause: failure });
    expect(step.tries).toEqual([0]);
  });

  it('a renewal moves the lease on: a try that was too late before is made', async () => {
    const step = failingStep([reset()]);
    const { retry, term } = retrying({ now: () => 950 });
    term.renewed(900);
    expect(await retry('day 2 saved', step.attempt)).toBe('done');
  });

  it('an aborted run ends the wait with its reason', async () => {
    const controller = new AbortController();
    const step = failingStep([reset(), reset()]);
    const waiting = retrying({ signal: controller.signal }).retry('summary of day 1 saved', step.attempt);
    const reason = new Error('cancelled');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
  });

  it('waits grow from the first delay, doubling up to the longest, each between half and all of its step', () => {
    const policy = retryPolicyFor(30_000);
    expect(policy).toEqual({ firstDelayMs: 100, maxDelayMs: 2000, marginMs: 3000 });
    expect([1, 2, 3, 4, 5, 6, 10].map((retry) => retryDelayMs(policy, retry, () => 1))).toEqual([100, 200, 400, 800, 1600, 2000, 2000]);
    expect([1, 2, 3].map((retry) => retryDelayMs(policy, retry, () => 0))).toEqual([50, 100, 200]);
    // A short lease gets short waits: a few tries fit in it.
    expect(retryPolicyFor(2000)).toEqual({ firstDelayMs: 40, maxDelayMs: 200, marginMs: 200 });
  });
});
