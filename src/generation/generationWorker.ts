// Runs generations: consumes TripPlanGenerationRequestedEvent and runs each (generationRun.ts) with
// the configured planner. At most `concurrency` runs at once and `concurrencyPerMember` of one
// member; the rest wait in a queue and members take turns (generationQueue.ts). Cancel (HTTP cancel,
// plan delete) aborts a run, or drops a waiting request, and sends CANCELLED. Stop (shutdown) ends
// every run and every waiting request with AI002 and marks the plan FAILED (openapi.yaml,
// startTripPlanGeneration).
import type { DatabasePort } from '../db/databasePort.js';
import type { EventBus, TripPlanGenerationRequestedEvent } from '../events/eventBus.js';
import type { Logger } from '../logger.js';
import type { Publishers } from '../realtime/publishers.js';
import { createGenerationQueue } from './generationQueue.js';
import { announceCancelled, Cancelled, failGeneration, runGeneration, STOPPED_MESSAGE, type GenerationRunDeps } from './generationRun.js';
import type { Planner } from './planner.js';

export interface GenerationWorker {
  /** runs in progress and waiting */
  readonly stats: () => { running: number; queued: number; completed: number; failed: number; cancelled: number };
  /** resolves when nothing runs or waits (tests, shutdown) */
  idle(): Promise<void>;
  /**
   * Shutdown: aborts every run and drops the queue; each of those plans gets AI002 on its errors
   * channel and is marked FAILED (a plan the storage cannot mark stays GENERATING until the next
   * start marks it). Requests arriving afterwards are failed the same way.
   */
  stop(): Promise<void>;
}

export function startGenerationWorker(deps: {
  db: DatabasePort;
  events: EventBus;
  planner: Planner;
  publishers: Publishers;
  log: Logger;
  clock: () => number;
  concurrency: number;
  concurrencyPerMember: number;
}): GenerationWorker {
  const runDeps: GenerationRunDeps = deps;
  const running = new Map<number, { memberId: number; controller: AbortController; done: Promise<void> }>();
  const queue = createGenerationQueue(deps.concurrencyPerMember);
  const counts = { completed: 0, failed: 0, cancelled: 0 };
  let idleWaiters: (() => void)[] = [];
  let stopped = false;

  function fail(event: TripPlanGenerationRequestedEvent, message: string): Promise<void> {
    counts.failed++;
    return failGeneration(runDeps, event, message);
  }

  function notifyIdle(): void {
    if (running.size > 0 || queue.size > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  function pump(): void {
    while (!stopped && running.size < deps.concurrency) {
      const event = queue.take(running);
      if (!event) return;
      const controller = new AbortController();
      const done = runGeneration(runDeps, event, controller.signal)
        .then((outcome) => void counts[outcome]++)
        .finally(() => {
          running.delete(event.tripPlanId);
          queue.forgetIfIdle(event.memberId, running);
          pump();
          notifyIdle();
        });
      running.set(event.tripPlanId, { memberId: event.memberId, controller, done });
    }
  }

  deps.events.subscribe('tripPlanGenerationRequested', (event) => {
    if (stopped) return fail(event, STOPPED_MESSAGE);
    queue.push(event);
    pump();
  });

  deps.events.subscribe('tripPlanGenerationCancelRequested', ({ tripPlanId, memberId, chatRoomId, reason }) => {
    const active = running.get(tripPlanId);
    if (active) {
      active.controller.abort(new Cancelled(reason));
      return;
    }
    if (queue.remove(tripPlanId)) {
      queue.forgetIfIdle(memberId, running);
      counts.cancelled++;
      announceCancelled(runDeps, { memberId, chatRoomId });
      notifyIdle();
    }
  });

  return {
    stats: () => ({ running: running.size, queued: queue.size, ...counts }),
    idle: () => (running.size === 0 && queue.size === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve))),
    async stop() {
      stopped = true;
      const failed = queue.drain().map((event) => fail(event, STOPPED_MESSAGE));
      for (const { controller } of running.values()) controller.abort(new Cancelled('shutdown'));
      await Promise.allSettled([...failed, ...[...running.values()].map((r) => r.done)]);
    },
  };
}
