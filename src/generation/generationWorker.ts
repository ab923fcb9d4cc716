// Runs generations: consumes TripPlanGenerationRequestedEvent, plans with the configured planner,
// saves each day in its own transaction and publishes in the documented order — for day 1..N:
// schedule DAILY_PLAN_GENERATED, then the day's summary on the chat (chunks, then the full text);
// then chat COMPLETED. A failure (a day that cannot be saved included) sends AI002 on the errors
// channel and nothing after it. At most `concurrency` runs at once and `concurrencyPerMember` of one
// member; the rest wait in a queue and members take turns (pickNextGeneration). Cancel (HTTP cancel,
// plan delete) aborts the run and sends CANCELLED. Stop (shutdown) ends every run and every waiting
// request with AI002 and marks the plan FAILED (openapi.yaml, startTripPlanGeneration).
import { channelAddress } from '../../generated/asyncapi.js';
import { insertChatMessage } from '../chats/chatRepository.js';
import { storageUnavailable } from '../db/storageFailure.js';
import type { Db } from '../db/database.js';
import type { Logger } from '../logger.js';
import type { Publishers } from '../realtime/publishers.js';
import { insertDay } from '../trips/dailyPlanRepository.js';
import { toDailyPlanResponse } from '../trips/tripPlanMappers.js';
import { findTripPlanById, transitionStatus } from '../trips/tripPlanRepository.js';
import type { EventBus, TripPlanGenerationRequestedEvent } from '../events/eventBus.js';
import { pickNextGeneration } from './nextGeneration.js';
import { PlannerError, type Planner, type PlanRequest } from './planner.js';

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

class Cancelled extends Error {
  constructor(readonly reason: 'cancel' | 'delete' | 'shutdown') {
    super(`generation ${reason}`);
  }
}

export function startGenerationWorker(deps: {
  db: Db;
  events: EventBus;
  planner: Planner;
  publishers: Publishers;
  log: Logger;
  clock: () => number;
  concurrency: number;
  concurrencyPerMember: number;
}): GenerationWorker {
  const { db, publishers, log, clock } = deps;
  const running = new Map<number, { memberId: number; controller: AbortController; done: Promise<void> }>();
  const queue: TripPlanGenerationRequestedEvent[] = [];
  const lastStartedByMember = new Map<number, number>();
  let starts = 0;
  const counts = { completed: 0, failed: 0, cancelled: 0 };
  let idleWaiters: (() => void)[] = [];
  let stopped = false;

  const now = () => new Date(clock()).toISOString();
  const chatDone = (event: TripPlanGenerationRequestedEvent, type: 'COMPLETED' | 'CANCELLED', message: string) =>
    publishers.chat(event.memberId, event.chatRoomId, { message, isComplete: true, timestamp: now(), messageStreamType: type });
  const STOPPED_MESSAGE = 'The service stopped while generating this itinerary; start the generation again.';

  /** AI002 on the errors channel, and the plan FAILED when the storage can still say so. */
  function fail(event: TripPlanGenerationRequestedEvent, message: string): void {
    const { tripPlanId, memberId, chatRoomId } = event;
    counts.failed++;
    try {
      transitionStatus(db, tripPlanId, ['GENERATING'], 'FAILED', clock(), 'AI002');
    } catch (error) {
      log.error({ err: error, tripPlanId }, 'could not mark the generation FAILED; the next start marks it');
    }
    publishers.error(memberId, chatRoomId, { timestamp: now(), code: 'AI002', message, path: channelAddress('errors', { chatRoomId }), errors: null });
  }

  function planExists(tripPlanId: number): boolean {
    try {
      return findTripPlanById(db, tripPlanId) !== undefined;
    } catch {
      return true; // cannot read it: report the failure rather than a cancel
    }
  }

  function notifyIdle(): void {
    if (running.size > 0 || queue.length > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  async function run(event: TripPlanGenerationRequestedEvent, signal: AbortSignal): Promise<void> {
    const { tripPlanId, memberId, chatRoomId } = event;
    const request: PlanRequest = { tripPlanId, memberId, ...event.request, transportation: event.request.transportation ?? 'PUBLIC_TRANSIT' };
    let days = 0;
    try {
      for await (const day of deps.planner.plan(request, signal)) {
        if (signal.aborted) throw signal.reason;
        const saved = insertDay(db, tripPlanId, day, request.transportation);
        days++;
        publishers.schedule(memberId, tripPlanId, { type: 'DAILY_PLAN_GENERATED', tripPlanId, dailyPlan: toDailyPlanResponse(saved) });
        let summary = '';
        for await (const chunk of deps.planner.summarize(day, request, signal)) {
          summary += chunk;
          publishers.chat(memberId, chatRoomId, { message: chunk, isComplete: false, timestamp: now(), messageStreamType: 'CHAT' });
        }
        if (signal.aborted) throw signal.reason;
        insertChatMessage(db, { chatRoomId, messageType: 'ASSISTANT', content: summary, createdAt: clock() });
        publishers.chat(memberId, chatRoomId, { message: summary, isComplete: true, timestamp: now(), messageStreamType: 'CHAT' });
      }
      if (!transitionStatus(db, tripPlanId, ['GENERATING'], 'COMPLETED', clock())) throw new Cancelled('cancel');
      counts.completed++;
      chatDone(event, 'COMPLETED', `Your ${days}-day itinerary is ready.`);
      log.info({ tripPlanId, days }, 'generation completed');
    } catch (error) {
      const cancelled = error instanceof Cancelled ? error : signal.aborted && signal.reason instanceof Cancelled ? signal.reason : null;
      if (cancelled?.reason === 'shutdown') {
        log.warn({ tripPlanId, days }, 'generation stopped by shutdown');
        fail(event, STOPPED_MESSAGE);
        return;
      }
      if (cancelled || !planExists(tripPlanId)) {
        counts.cancelled++;
        log.info({ tripPlanId, reason: cancelled?.reason ?? 'delete' }, 'generation cancelled');
        chatDone(event, 'CANCELLED', 'The itinerary generation was cancelled.');
        return;
      }
      const unavailable = storageUnavailable(error);
      const message =
        error instanceof PlannerError ? error.message : unavailable ? 'A day could not be saved (the storage cannot take writes); please try again later.' : 'The itinerary could not be generated. Please try again.';
      log.error({ err: error, tripPlanId }, 'generation failed');
      fail(event, message);
    }
  }

  /** A member with nothing running or waiting starts afresh next time; this keeps the map bounded. */
  function forgetIfIdle(memberId: number): void {
    for (const r of running.values()) if (r.memberId === memberId) return;
    if (!queue.some((e) => e.memberId === memberId)) lastStartedByMember.delete(memberId);
  }

  function pump(): void {
    while (!stopped && running.size < deps.concurrency) {
      const runningByMember = new Map<number, number>();
      for (const { memberId } of running.values()) runningByMember.set(memberId, (runningByMember.get(memberId) ?? 0) + 1);
      const next = pickNextGeneration(queue, { runningByMember, runningPlans: new Set(running.keys()), lastStartedByMember, perMemberLimit: deps.concurrencyPerMember });
      if (next < 0) return;
      const [event] = queue.splice(next, 1) as [TripPlanGenerationRequestedEvent];
      lastStartedByMember.set(event.memberId, ++starts);
      const controller = new AbortController();
      const done = run(event, controller.signal).finally(() => {
        running.delete(event.tripPlanId);
        forgetIfIdle(event.memberId);
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
    const waiting = queue.findIndex((e) => e.tripPlanId === tripPlanId);
    if (waiting >= 0) {
      queue.splice(waiting, 1);
      forgetIfIdle(memberId);
      counts.cancelled++;
      publishers.chat(memberId, chatRoomId, { message: 'The itinerary generation was cancelled.', isComplete: true, timestamp: now(), messageStreamType: 'CANCELLED' });
      notifyIdle();
    }
  });

  return {
    stats: () => ({ running: running.size, queued: queue.length, ...counts }),
    idle: () => (running.size === 0 && queue.length === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve))),
    async stop() {
      stopped = true;
      for (const event of queue.splice(0)) fail(event, STOPPED_MESSAGE);
      for (const { controller } of running.values()) controller.abort(new Cancelled('shutdown'));
      await Promise.allSettled([...running.values()].map((r) => r.done));
    },
  };
}
