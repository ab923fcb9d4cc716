// What a generation left in the database, read the way a client reads it: over HTTP, each response
// checked against its documented shape.
import { jsonAt } from '../../conformance/specModel/index.js';
import type { ReceivedMessage } from './stompTestClient.js';
import { bodyOf } from './responseBody.js';
import type { TestApp, TestResponse } from './testApp.js';

type Requester = Pick<TestApp, 'request'>;

/** The plan's saved days, each with its day number and description, in day order. */
export async function savedDays(t: Requester, token: string, tripPlanId: number): Promise<{ dayNumber: number; description: string }[]> {
  return bodyOf(await t.request('GET', `/api/v1/trips/daily-plans/${tripPlanId}`, { token }), 'listDailyPlans', 200).data;
}

export async function generationStatus(t: Requester, token: string, tripPlanId: number): Promise<string> {
  return bodyOf(await t.request('GET', `/api/v1/trips/${tripPlanId}`, { token }), 'getTripPlan', 200).data.generationStatus;
}

/** The assistant's messages of the chat history, oldest first (the API pages newest first). */
export async function assistantMessages(t: Requester, token: string, chatRoomId: number): Promise<string[]> {
  const newestFirst: string[] = [];
  let cursor: number | null = null;
  do {
    const res: TestResponse = await t.request('GET', `/api/v1/chats/${chatRoomId}/messages`, { token, query: cursor ? { size: 100, cursor } : { size: 100 } });
    const page = bodyOf(res, 'listChatMessages', 200).data;
    newestFirst.push(...page.content.filter((m) => m.messageType === 'ASSISTANT').map((m) => m.content));
    cursor = page.nextCursor;
  } while (cursor !== null);
  return newestFirst.reverse();
}

export const isDayGenerated = (m: ReceivedMessage) => m.destination.includes('/schedule/') && jsonAt(m.body, 'type') === 'DAILY_PLAN_GENERATED';
/** A day's whole summary on the chat channel (the chunks before it have isComplete: false). */
export const isFullSummary = (m: ReceivedMessage) =>
  m.destination.includes('/chat/') && jsonAt(m.body, 'messageStreamType') === 'CHAT' && jsonAt(m.body, 'isComplete') === true;
export const isCompleted = (m: ReceivedMessage) => m.destination.includes('/chat/') && jsonAt(m.body, 'messageStreamType') === 'COMPLETED';
export const isGenerationFailure = (m: ReceivedMessage) => m.destination.includes('/errors/') && jsonAt(m.body, 'code') === 'AI002';
export const dayNumberOf = (m: ReceivedMessage) => jsonAt(m.body, 'dailyPlan', 'dayNumber') as number;
export const messageTextOf = (m: ReceivedMessage) => jsonAt(m.body, 'message') as string;
