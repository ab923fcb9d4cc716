// Planners for tests that need a generation to stay running (cancel, delete while generating).
import { abortableDelay } from '../../src/generation/abortableDelay.js';
import type { Planner } from '../../src/generation/planner.js';

/** Never produces a day; the run only ends when it is cancelled or the app stops. */
export function heldPlanner(): Planner {
  return {
    name: 'held',
    async *plan(_request, signal) {
      await abortableDelay(2 ** 31 - 1, signal);
    },
    async *summarize() {},
  };
}

export interface GatedPlanner extends Planner {
  /** tripPlanIds in the order their runs started */
  readonly started: number[];
  /** resolves once `count` runs have started */
  waitForStarts(count: number): Promise<void>;
  /** lets the run of `tripPlanId` produce one more day (or, after its last day, end) */
  step(tripPlanId: number): void;
  /** lets the run of `tripPlanId` go on to its end without stopping */
  finish(tripPlanId: number): void;
  /**
   * Resolves when the run of `tripPlanId` is held at its gate, with the number of days it has
   * produced so far; by then the worker has saved and published each of them.
   */
  paused(tripPlanId: number): Promise<number>;
}

/**
 * Plans with `inner` (e.g. the offline planner, created once the app's database exists), but each
 * run stops at a gate before every day and before it ends, until the test lets it on: runs start,
 * pause and end in an order the test decides, whatever the machine's speed.
 */
export function gatedPlanner(inner: () => Planner): GatedPlanner {
  const started: number[] = [];
  const startWaiters: { count: number; resolve: () => void }[] = [];
  const gates = new Map<number, { permits: number; open: (() => void) | null; heldAt: number | null; onHeld: ((days: number) => void)[] }>();
  const gateOf = (tripPlanId: number) => {
    let gate = gates.get(tripPlanId);
    if (!gate) gates.set(tripPlanId, (gate = { permits: 0, open: null, heldAt: null, onHeld: [] }));
    return gate;
  };

  async function pass(tripPlanId: number, days: number, signal: AbortSignal): Promise<void> {
    const gate = gateOf(tripPlanId);
    if (gate.permits > 0) {
      gate.permits--;
      return;
    }
    gate.heldAt = days;
    for (const resolve of gate.onHeld.splice(0)) resolve(days);
    await new Promise<void>((resolve, reject) => {
      // An aborted run leaves the gate as a later run of the same plan (a restart) expects it.
      const onAbort = () => {
        gate.open = null;
        gate.heldAt = null;
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted', { cause: signal.reason }));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      gate.open = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
    });
  }

  function release(tripPlanId: number, permits: number): void {
    const gate = gateOf(tripPlanId);
    gate.permits += permits;
    if (gate.open && gate.permits > 0) {
      gate.permits--;
      const open = gate.open;
      gate.open = null;
      gate.heldAt = null;
      open();
    }
  }

  return {
    name: 'gated',
    started,
    async *plan(request, signal) {
      started.push(request.tripPlanId);
      for (const waiter of [...startWaiters]) {
        if (started.length >= waiter.count) {
          startWaiters.splice(startWaiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
      let days = 0;
      for await (const day of inner().plan(request, signal)) {
        await pass(request.tripPlanId, days, signal);
        yield day;
        days++;
      }
      await pass(request.tripPlanId, days, signal);
    },
    summarize: (day, request, signal) => inner().summarize(day, request, signal),
    waitForStarts: (count) => (started.length >= count ? Promise.resolve() : new Promise((resolve) => startWaiters.push({ count, resolve }))),
    step: (tripPlanId) => release(tripPlanId, 1),
    finish: (tripPlanId) => release(tripPlanId, Infinity),
    paused(tripPlanId) {
      const gate = gateOf(tripPlanId);
      if (gate.heldAt !== null) return Promise.resolve(gate.heldAt);
      return new Promise((resolve) => gate.onHeld.push(resolve));
    },
  };
}
