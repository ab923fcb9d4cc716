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
