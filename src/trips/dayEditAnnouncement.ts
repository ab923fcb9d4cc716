// How an edit of a saved day reaches the owner's clients, whoever made it (an HTTP swap, a chat
// edit): the schedule channel gets UPDATE_STARTED, then UPDATED with the day as saved, then the chat
// channel gets UPDATED (asyncapi.yaml, receiveScheduleUpdates). Called right after the edit, in the
// same turn, so nobody observes the edited plan before its messages.
import type { Publishers } from '../delivery/publishers.js';
import type { AppliedDayEdit } from './savedDayEdits.js';
import { toDailyPlanResponse } from './tripPlanMappers.js';

export function announceDayEdit(
  publishers: Publishers,
  clock: () => number,
  plan: { id: number; memberId: number; chatRoomId: number },
  { day, summary }: AppliedDayEdit,
): void {
  publishers.schedule(plan.memberId, plan.id, { type: 'UPDATE_STARTED', tripPlanId: plan.id, message: `Updating day ${day.dayNumber}.` });
  publishers.schedule(plan.memberId, plan.id, { type: 'UPDATED', tripPlanId: plan.id, dailyPlan: toDailyPlanResponse(day), message: summary });
  publishers.chat(plan.memberId, plan.chatRoomId, {
    message: summary,
    isComplete: true,
    timestamp: new Date(clock()).toISOString(),
    messageStreamType: 'UPDATED',
  });
}
