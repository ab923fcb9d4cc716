// The generations waiting for a slot, and whose turn it is: the fairness rule of openapi.yaml
// (startTripPlanGeneration, "Queue and fairness") applied to the in-memory queue. At most
// `perMemberLimit` runs of one member; among members who wait, the one whose latest run started
// longest ago goes next (pickNextGeneration).
import type { TripPlanGenerationRequestedEvent } from '../events/eventBus.js';
import { pickNextGeneration } from './nextGeneration.js';

export interface GenerationQueue {
  readonly size: number;
  push(event: TripPlanGenerationRequestedEvent): void;
  /** The request to start now given the runs in progress (by plan id), or undefined; it leaves the queue. */
  take(running: ReadonlyMap<number, { memberId: number }>): TripPlanGenerationRequestedEvent | undefined;
  /** Takes a waiting request of the plan out of the queue, if there is one. */
  remove(tripPlanId: number): TripPlanGenerationRequestedEvent | undefined;
  /** Empties the queue. */
  drain(): TripPlanGenerationRequestedEvent[];
  /** A member with nothing running or waiting starts afresh next time; this keeps the bookkeeping bounded. */
  forgetIfIdle(memberId: number, running: ReadonlyMap<number, { memberId: number }>): void;
}

export function createGenerationQueue(perMemberLimit: number): GenerationQueue {
  const queue: TripPlanGenerationRequestedEvent[] = [];
  const lastStartedByMember = new Map<number, number>();
  let starts = 0;
  return {
    get size() {
      return queue.length;
    },
    push(event) {
      queue.push(event);
    },
    take(running) {
      const runningByMember = new Map<number, number>();
      for (const { memberId } of running.values()) runningByMember.set(memberId, (runningByMember.get(memberId) ?? 0) + 1);
      const next = pickNextGeneration(queue, { runningByMember, runningPlans: new Set(running.keys()), lastStartedByMember, perMemberLimit });
      if (next < 0) return undefined;
      const [event] = queue.splice(next, 1) as [TripPlanGenerationRequestedEvent];
      lastStartedByMember.set(event.memberId, ++starts);
      return event;
    },
    remove(tripPlanId) {
      const waiting = queue.findIndex((e) => e.tripPlanId === tripPlanId);
      return waiting >= 0 ? queue.splice(waiting, 1)[0] : undefined;
    },
    drain: () => queue.splice(0),
    forgetIfIdle(memberId, running) {
      for (const r of running.values()) if (r.memberId === memberId) return;
      if (!queue.some((e) => e.memberId === memberId)) lastStartedByMember.delete(memberId);
    },
  };
}
