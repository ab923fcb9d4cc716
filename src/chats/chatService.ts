// Chat over STOMP: a SEND to /pub/chat/{chatRoomId}/message is checked against asyncapi.yaml's
// ChatMessageRequest, stored as a USER message, and answered on the chat channel by the chat
// agent. An edit of the plan goes out as UPDATE_STARTED / UPDATED on the schedule channel and
// UPDATED on the chat; the answer is stored as an ASSISTANT message. Messages of one room are
// handled one at a time, in the order they arrived. While the plan is GENERATING the chat takes no
// messages and applies no edit (TRIP106 on the errors channel, asyncapi.yaml sendChatMessage).
import { channelAddress, type AsyncSchemas } from '../../generated/asyncapi.js';
import { messageValidators } from '../../generated/validators.js';
import type { Principal } from '../auth/authService.js';
import type { Db } from '../db/database.js';
import { chunkText } from '../text/textChunks.js';
import { haversineMetres } from '../itinerary/travel.js';
import { AppError } from '../http/appError.js';
import type { Logger } from '../logger.js';
import type { Publishers } from '../realtime/publishers.js';
import { listDays, placeIdsOfPlan, type DayWithStops, type PlaceRow } from '../trips/dailyPlanRepository.js';
import { describeStop, loadDay, removeStop, replaceStop, swapStops } from '../trips/itineraryEdits.js';
import { toDailyPlanResponse } from '../trips/tripPlanMappers.js';
import { findTripPlanById, type TripPlanWithRoom } from '../trips/tripPlanRepository.js';
import type { ChatAgent, ChatEdit } from './chatAgent.js';
import { findOwnChatRoom, insertChatMessage } from './chatRepository.js';

type ChatMessageRequest = AsyncSchemas['ChatMessageRequest'];
export type ChatRefusal = { code: 'CHAT102' | 'COMMON001' | 'COMMON002' | 'TRIP106'; message: string };

const GENERATING_REFUSAL = 'The itinerary is being generated; send your message once it is complete.';

export interface ChatService {
  /** Synchronous part of a SEND: check and store; the answer follows asynchronously. */
  receive(principal: Principal, chatRoomId: number, body: string): 'accepted' | ChatRefusal;
  /** resolves when every room's queue is empty (tests, shutdown) */
  idle(): Promise<void>;
}


function validate(body: string): ChatMessageRequest | ChatRefusal {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { code: 'COMMON002', message: 'The message body is not valid JSON.' };
  }
  const check = messageValidators.ChatMessageRequest;
  if (check(parsed)) return parsed as ChatMessageRequest;
  const errors = check.errors ?? [];
  if (errors.some((e) => e.instancePath === '/content' || e.instancePath === '/messageContentType' || (e.keyword === 'required' && e.params.missingProperty === 'content'))) {
    return { code: 'CHAT102', message: 'A chat message must be non-blank TEXT of at most 2000 characters.' };
  }
  return { code: 'COMMON001', message: `The message does not match ChatMessageRequest: ${errors.map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')}` };
}

export function createChatService(deps: {
  db: Db;
  agent: ChatAgent;
  publishers: Publishers;
  log: Logger;
  clock: () => number;
  /** the catalogue places of a plan's region (for "replace") */
  placesOfRegion: (region: string) => PlaceRow[];
  isGenerating: (tripPlanId: number) => boolean;
}): ChatService {
  const { db, publishers, clock } = deps;
  const rooms = new Map<number, Promise<void>>();
  const now = () => new Date(clock()).toISOString();

  function replacementFor(plan: TripPlanWithRoom, day: DayWithStops, visitOrder: number): PlaceRow {
    const current = day.stops.find((s) => s.visitOrder === visitOrder);
    if (!current) throw new AppError('TRIP104', `Day ${day.dayNumber} has no stop at visit order ${visitOrder}.`);
    const used = placeIdsOfPlan(db, plan.id);
    const candidates = deps.placesOfRegion(plan.region).filter((p) => !used.has(p.id) && p.kind === current.place.kind);
    if (candidates.length === 0) throw new AppError('TRIP104', `There is no other ${current.place.kind === 'RESTAURANT' ? 'restaurant' : 'place'} left to suggest in ${plan.region}.`);
    const themes = new Set(plan.themes);
    const score = (p: PlaceRow) => haversineMetres(current.place, p) - (p.themes.some((t) => themes.has(t)) ? 3000 : 0);
    return candidates.reduce((best, p) => (score(p) < score(best) || (score(p) === score(best) && p.id < best.id) ? p : best));
  }

  function apply(plan: TripPlanWithRoom, edit: ChatEdit): { day: DayWithStops; summary: string } {
    const day = loadDay(db, plan.id, edit.dayNumber);
    switch (edit.kind) {
      case 'swap': {
        const [a, b] = [describeStop(day, edit.visitOrderA), describeStop(day, edit.visitOrderB)];
        return { day: swapStops(db, day, edit.visitOrderA, edit.visitOrderB), summary: `Swapped stop ${edit.visitOrderA} (${a}) and stop ${edit.visitOrderB} (${b}) on day ${edit.dayNumber}.` };
      }
      case 'remove': {
        const name = describeStop(day, edit.visitOrder);
        return { day: removeStop(db, day, edit.visitOrder), summary: `Removed stop ${edit.visitOrder} (${name}) from day ${edit.dayNumber}.` };
      }
      case 'replace': {
        const name = describeStop(day, edit.visitOrder);
        const replacement = replacementFor(plan, day, edit.visitOrder);
        return { day: replaceStop(db, day, edit.visitOrder, replacement), summary: `Replaced stop ${edit.visitOrder} (${name}) on day ${edit.dayNumber} with ${replacement.name}: ${replacement.description}` };
      }
    }
  }

  function answer(principal: Principal, chatRoomId: number, text: string): void {
    for (const chunk of chunkText(text, 60)) {
      publishers.chat(principal.memberId, chatRoomId, { message: chunk, isComplete: false, timestamp: now(), messageStreamType: 'CHAT' });
    }
    insertChatMessage(db, { chatRoomId, messageType: 'ASSISTANT', content: text, createdAt: clock() });
    publishers.chat(principal.memberId, chatRoomId, { message: text, isComplete: true, timestamp: now(), messageStreamType: 'CHAT' });
  }

  function refuseWhileGenerating(principal: Principal, chatRoomId: number, message: string): void {
    publishers.error(principal.memberId, chatRoomId, { timestamp: now(), code: 'TRIP106', message, path: channelAddress('chatMessages', { chatRoomId }), errors: null });
  }

  async function converse(principal: Principal, chatRoomId: number, tripPlanId: number, request: ChatMessageRequest): Promise<void> {
    const plan = findTripPlanById(db, tripPlanId);
    if (!plan) return;
    // Accepted before a generation started, but its turn came after: not acted on.
    if (deps.isGenerating(plan.id)) return refuseWhileGenerating(principal, chatRoomId, GENERATING_REFUSAL);
    const decision = await deps.agent.decide(
      { tripPlanId: plan.id, region: plan.region, content: request.content, scheduledPlaceId: request.scheduledPlaceId, days: listDays(db, plan.id) },
      AbortSignal.timeout(60_000),
    );
    if (!decision.edit) {
      answer(principal, chatRoomId, decision.reply);
      return;
    }
    // A generation may have started while the agent was deciding; its days are not ours to edit.
    if (deps.isGenerating(plan.id)) {
      return refuseWhileGenerating(principal, chatRoomId, 'A generation started before your edit could be applied; nothing was changed. Ask again once it is complete.');
    }
    let result: { day: DayWithStops; summary: string };
    try {
      // Synchronous: nobody can observe the plan between the edit and the two messages below.
      result = apply(plan, decision.edit);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      answer(principal, chatRoomId, `${error.message} Nothing was changed.`);
      return;
    }
    publishers.schedule(principal.memberId, plan.id, { type: 'UPDATE_STARTED', tripPlanId: plan.id, message: `Updating day ${decision.edit.dayNumber}.` });
    publishers.schedule(principal.memberId, plan.id, { type: 'UPDATED', tripPlanId: plan.id, dailyPlan: toDailyPlanResponse(result.day), message: result.summary });
    publishers.chat(principal.memberId, chatRoomId, { message: result.summary, isComplete: true, timestamp: now(), messageStreamType: 'UPDATED' });
    answer(principal, chatRoomId, decision.reply ? `${decision.reply}\n\n${result.summary}` : result.summary);
  }

  return {
    receive(principal, chatRoomId, body) {
      const request = validate(body);
      if ('code' in request) return request;
      const room = findOwnChatRoom(db, principal.memberId, chatRoomId);
      if (!room) return { code: 'COMMON001', message: 'Chat room not found.' };
      if (deps.isGenerating(room.tripPlanId)) return { code: 'TRIP106', message: GENERATING_REFUSAL };
      insertChatMessage(db, { chatRoomId, messageType: 'USER', content: request.content, createdAt: clock() });
      const previous = rooms.get(chatRoomId) ?? Promise.resolve();
      const next = previous
        .then(() => converse(principal, chatRoomId, room.tripPlanId, request))
        .catch((error: unknown) => {
          deps.log.error({ err: error, chatRoomId }, 'chat answer failed');
          publishers.error(principal.memberId, chatRoomId, { timestamp: now(), code: 'AI002', message: 'The assistant could not answer; please try again.', path: channelAddress('chatMessages', { chatRoomId }), errors: null });
        })
        .finally(() => {
          if (rooms.get(chatRoomId) === next) rooms.delete(chatRoomId);
        });
      rooms.set(chatRoomId, next);
      return 'accepted';
    },
    async idle() {
      while (rooms.size > 0) await Promise.allSettled([...rooms.values()]);
    },
  };
}
