// The answer to one pending chat message, by the holder of its room's turn (heldTurns.ts): the
// agent's reply, or its edit of the plan applied (trips/savedDayEdits.ts) in one transaction with
// the end of the message's turn and its ASSISTANT answer, then announced
// (trips/dayEditAnnouncement.ts) and answered on the chat channel. While the plan is GENERATING no
// edit is applied (TRIP106 on the errors channel).
import { channelAddress } from '../../generated/asyncapi.js';
import type { DatabasePort } from '../db/databasePort.js';
import type { Publishers } from '../delivery/publishers.js';
import { AppError } from '../kernel/appError.js';
import type { Logger } from '../kernel/logger.js';
import { chunkText } from '../text/textChunks.js';
import { listDays } from '../trips/dailyPlanRepository.js';
import { announceDayEdit } from '../trips/dayEditAnnouncement.js';
import { applyDayEdit, type AppliedDayEdit } from '../trips/savedDayEdits.js';
import { findTripPlanById } from '../trips/tripPlanRepository.js';
import type { ChatAgent } from './chatAgent.js';
import type { ChatRoomRow } from './chatRepository.js';
import { answered, answeredWith, TurnLost, type PendingMessage } from './chatTurns.js';

export const GENERATING_REFUSAL = 'The itinerary is being generated; send your message once it is complete.';

/** What answering needs of the chat service's deps (chatService.ts). */
export interface AnswerDeps {
  db: DatabasePort;
  agent: ChatAgent;
  publishers: Publishers;
  log: Logger;
  clock: () => number;
  turns: { leaseMs: number };
}

const now = (deps: AnswerDeps) => new Date(deps.clock()).toISOString();

function publishAnswer(deps: AnswerDeps, room: ChatRoomRow, text: string): void {
  for (const chunk of chunkText(text, 60)) {
    deps.publishers.chat(room.memberId, room.id, { message: chunk, isComplete: false, timestamp: now(deps), messageStreamType: 'CHAT' });
  }
  deps.publishers.chat(room.memberId, room.id, { message: text, isComplete: true, timestamp: now(deps), messageStreamType: 'CHAT' });
}

function publishError(deps: AnswerDeps, room: ChatRoomRow, code: 'TRIP106' | 'AI002', message: string): void {
  deps.publishers.error(
    { memberId: room.memberId, chatRoomId: room.id, tripPlanId: room.tripPlanId },
    { timestamp: now(deps), code, message, path: channelAddress('chatMessages', { chatRoomId: room.id }), errors: null },
  );
}

/** Answers one pending message while holding the room's turn; TurnLost when the turn was taken over. */
async function answer(deps: AnswerDeps, room: ChatRoomRow, token: string, message: PendingMessage): Promise<void> {
  const { db, clock, turns } = deps;
  const turn = () => ({ chatRoomId: room.id, token, nowMs: clock(), leaseMs: turns.leaseMs });
  const plan = await findTripPlanById(db, room.tripPlanId);
  // Deleted with its room and messages since the turn began: nothing is left to answer.
  if (!plan) throw new TurnLost('the plan was deleted');
  // Stored before a generation started, but its turn came after: not acted on.
  if (plan.generationStatus === 'GENERATING') {
    await answered(db, turn(), message.id, null);
    return publishError(deps, room, 'TRIP106', GENERATING_REFUSAL);
  }
  const decision = await deps.agent.decide(
    {
      tripPlanId: plan.id,
      region: plan.region,
      content: message.content,
      scheduledPlaceId: message.scheduledPlaceId ?? undefined,
      days: await listDays(db, plan.id),
    },
    AbortSignal.timeout(60_000),
  );
  if (!decision.edit) {
    await answered(db, turn(), message.id, decision.reply);
    return publishAnswer(deps, room, decision.reply);
  }
  const confirmation = (applied: AppliedDayEdit) => (decision.reply ? `${decision.reply}\n\n${applied.summary}` : applied.summary);
  let result: AppliedDayEdit;
  try {
    result = await applyDayEdit(db, plan.id, decision.edit, (q, applied) => answeredWith(db, q, turn(), message.id, confirmation(applied)));
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // A generation started while the agent was deciding; its days are not ours to edit.
    if (error.code === 'TRIP106') {
      await answered(db, turn(), message.id, null);
      return publishError(deps, room, 'TRIP106', 'A generation started before your edit could be applied; nothing was changed. Ask again once it is complete.');
    }
    const refusal = `${error.message} Nothing was changed.`;
    await answered(db, turn(), message.id, refusal);
    return publishAnswer(deps, room, refusal);
  }
  announceDayEdit(deps.publishers, clock, plan, result);
  publishAnswer(deps, room, confirmation(result));
}

/** answer(), except that a failure other than a lost turn ends the message's turn with AI002. */
export async function answerOrFail(deps: AnswerDeps, room: ChatRoomRow, token: string, message: PendingMessage): Promise<void> {
  try {
    await answer(deps, room, token, message);
  } catch (error) {
    if (error instanceof TurnLost) throw error;
    deps.log.error({ err: error, chatRoomId: room.id }, 'chat answer failed');
    // Not answered, but not waiting any more either (the next message's turn must come); when
    // even this fails (storage away) it stays pending and is tried again at the next turn.
    await answered(deps.db, { chatRoomId: room.id, token, nowMs: deps.clock(), leaseMs: deps.turns.leaseMs }, message.id, null);
    publishError(deps, room, 'AI002', 'The assistant could not answer; please try again.');
  }
}
