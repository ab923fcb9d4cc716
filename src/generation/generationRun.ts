// One generation run, in the documented order (asyncapi.yaml, receiveScheduleUpdates): for day
// 1..N the day is saved in its own transaction, then schedule DAILY_PLAN_GENERATED, then the day's
// summary on the chat (chunks, then the full text); then the plan is COMPLETED and the chat says so.
// A failure (a day that cannot be saved included) sends AI002 on the errors channel and nothing
// after it. A cancel or a delete ends the run with the chat's CANCELLED; the shutdown ends it with
// AI002 and the plan FAILED (openapi.yaml, startTripPlanGeneration).
import { channelAddress } from '../../generated/asyncapi.js';
import { insertChatMessage } from '../chats/chatRepository.js';
import type { DatabasePort } from '../db/databasePort.js';
import { storageUnavailable } from '../db/storageFailure.js';
import type { TripPlanGenerationRequestedEvent } from '../events/eventBus.js';
import type { Logger } from '../logger.js';
import type { Publishers, RunPublishers } from '../realtime/publishers.js';
import { insertDay } from '../trips/dailyPlanRepository.js';
import { toDailyPlanResponse } from '../trips/tripPlanMappers.js';
import { findTripPlanById, transitionStatus } from '../trips/tripPlanRepository.js';
import { PlannerError, type Planner, type PlanRequest } from './planner.js';

export interface GenerationRunDeps {
  db: DatabasePort;
  planner: Planner;
  publishers: Publishers;
  log: Logger;
  clock: () => number;
}

/** Why a run was aborted: the reason of its AbortSignal. */
export class Cancelled extends Error {
  constructor(readonly reason: 'cancel' | 'delete' | 'shutdown') {
    super(`generation ${reason}`);
  }
}

export type RunOutcome = 'completed' | 'cancelled' | 'failed';

export const STOPPED_MESSAGE = 'The service stopped while generating this itinerary; start the generation again.';
const CANCELLED_MESSAGE = 'The itinerary generation was cancelled.';

const now = (clock: () => number) => new Date(clock()).toISOString();

/** AI002 on the errors channel (the run's last message, when it ran), and the plan FAILED when the storage can still say so. */
export async function failGeneration(deps: GenerationRunDeps, event: TripPlanGenerationRequestedEvent, message: string, run?: RunPublishers): Promise<void> {
  const { tripPlanId, chatRoomId } = event;
  try {
    await transitionStatus(deps.db, tripPlanId, ['GENERATING'], 'FAILED', deps.clock(), 'AI002');
  } catch (error) {
    deps.log.error({ err: error, tripPlanId }, 'could not mark the generation FAILED; the next start marks it');
  }
  const failure = { timestamp: now(deps.clock), code: 'AI002' as const, message, path: channelAddress('errors', { chatRoomId }), errors: null };
  if (run) run.error(failure);
  else deps.publishers.error(event, failure);
}

/** The chat's CANCELLED, the last message of a cancelled generation (running or waiting). */
export function announceCancelled(
  deps: GenerationRunDeps,
  event: Pick<TripPlanGenerationRequestedEvent, 'memberId' | 'chatRoomId'>,
  run?: RunPublishers,
): void {
  const cancelled = { message: CANCELLED_MESSAGE, isComplete: true as const, timestamp: now(deps.clock), messageStreamType: 'CANCELLED' as const };
  if (run) run.chat(cancelled);
  else deps.publishers.chat(event.memberId, event.chatRoomId, cancelled);
}

async function planExists(db: DatabasePort, tripPlanId: number): Promise<boolean> {
  try {
    return (await findTripPlanById(db, tripPlanId)) !== undefined;
  } catch {
    return true; // cannot read it: report the failure rather than a cancel
  }
}

export async function runGeneration(deps: GenerationRunDeps, event: TripPlanGenerationRequestedEvent, signal: AbortSignal): Promise<RunOutcome> {
  const { db, log, clock } = deps;
  const { tripPlanId, memberId, chatRoomId } = event;
  // Its messages are this run's: a new epoch of the plan's logs, ended by the terminal message.
  const publishers = deps.publishers.startRun(event);
  const request: PlanRequest = { tripPlanId, memberId, ...event.request, transportation: event.request.transportation ?? 'PUBLIC_TRANSIT' };
  let days = 0;
  try {
    for await (const day of deps.planner.plan(request, signal)) {
      if (signal.aborted) throw signal.reason;
      const saved = await insertDay(db, tripPlanId, day, request.transportation);
      days++;
      publishers.schedule({ type: 'DAILY_PLAN_GENERATED', tripPlanId, dailyPlan: toDailyPlanResponse(saved) });
      let summary = '';
      for await (const chunk of deps.planner.summarize(day, request, signal)) {
        summary += chunk;
        publishers.chat({ message: chunk, isComplete: false, timestamp: now(clock), messageStreamType: 'CHAT' });
      }
      if (signal.aborted) throw signal.reason;
      await insertChatMessage(db, { chatRoomId, messageType: 'ASSISTANT', content: summary, createdAt: clock() });
      publishers.chat({ message: summary, isComplete: true, timestamp: now(clock), messageStreamType: 'CHAT' });
    }
    if (!(await transitionStatus(db, tripPlanId, ['GENERATING'], 'COMPLETED', clock()))) throw new Cancelled('cancel');
    publishers.chat({
      message: `Your ${days}-day itinerary is ready.`,
      isComplete: true,
      timestamp: now(clock),
      messageStreamType: 'COMPLETED',
    });
    log.info({ tripPlanId, days }, 'generation completed');
    return 'completed';
  } catch (error) {
    const cancelled = error instanceof Cancelled ? error : signal.aborted && signal.reason instanceof Cancelled ? signal.reason : null;
    if (cancelled?.reason === 'shutdown') {
      log.warn({ tripPlanId, days }, 'generation stopped by shutdown');
      await failGeneration(deps, event, STOPPED_MESSAGE, publishers);
      return 'failed';
    }
    if (cancelled || !(await planExists(db, tripPlanId))) {
      log.info({ tripPlanId, reason: cancelled?.reason ?? 'delete' }, 'generation cancelled');
      announceCancelled(deps, event, publishers);
      return 'cancelled';
    }
    const unavailable = storageUnavailable(error);
    const message =
      error instanceof PlannerError
        ? error.message
        : unavailable
          ? 'A day could not be saved (the storage cannot take writes); please try again later.'
          : 'The itinerary could not be generated. Please try again.';
    log.error({ err: error, tripPlanId }, 'generation failed');
    await failGeneration(deps, event, message, publishers);
    return 'failed';
  }
}
