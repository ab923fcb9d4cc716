// Chat over STOMP: a SEND to /pub/chat/{chatRoomId}/message is checked against asyncapi.yaml's
// ChatMessageRequest, stored as a USER message, and answered on the chat channel by the chat
// agent. An edit of the plan is applied and announced as every day edit is (trips/savedDayEdits.ts,
// trips/dayEditAnnouncement.ts); the answer is stored as an ASSISTANT message. Messages of one room are
// handled one at a time, in the order they arrived. While the plan is GENERATING the chat takes no
// messages and applies no edit (TRIP106 on the errors channel, asyncapi.yaml sendChatMessage). A
// member's messages are limited per minute over every instance (CHAT_MESSAGES_PER_MINUTE): beyond,
// CHAT103 on the errors channel, and nothing is stored or asked of the agent.
import { channelAddress, type AsyncSchemas } from '../../generated/asyncapi.js';
import { messageValidators } from '../../generated/validators.js';
import type { DatabasePort } from '../db/databasePort.js';
import { AppError } from '../http/appError.js';
import type { Principal } from '../http/principal.js';
import type { RateLimitStore } from '../http/rateLimitStore.js';
import type { Logger } from '../logger.js';
import type { Publishers } from '../realtime/publishers.js';
import { chunkText } from '../text/textChunks.js';
import { listDays } from '../trips/dailyPlanRepository.js';
import { announceDayEdit } from '../trips/dayEditAnnouncement.js';
import { applyDayEdit, type AppliedDayEdit } from '../trips/savedDayEdits.js';
import { findTripPlanById } from '../trips/tripPlanRepository.js';
import type { ChatAgent } from './chatAgent.js';
import { findOwnChatRoom, insertChatMessage } from './chatRepository.js';

type ChatMessageRequest = AsyncSchemas['ChatMessageRequest'];
export type ChatRefusal = { code: 'CHAT102' | 'CHAT103' | 'COMMON001' | 'COMMON002' | 'TRIP106'; message: string };

const GENERATING_REFUSAL = 'The itinerary is being generated; send your message once it is complete.';

export interface ChatService {
  /** First part of a SEND: check and store; the answer follows, after the room's earlier messages. */
  receive(principal: Principal, chatRoomId: number, body: string): Promise<'accepted' | ChatRefusal>;
  /** resolves when every room's queue is empty (tests, shutdown) */
  idle(): Promise<void>;
}

/** A SEND body as a ChatMessageRequest, or the refusal the errors channel gets (asyncapi.yaml sendChatMessage). */
export function readChatMessage(body: string): ChatMessageRequest | ChatRefusal {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { code: 'COMMON002', message: 'The message body is not valid JSON.' };
  }
  const check = messageValidators.ChatMessageRequest;
  if (check(parsed)) return parsed as ChatMessageRequest;
  const errors = check.errors ?? [];
  if (
    errors.some(
      (e) => e.instancePath === '/content' || e.instancePath === '/messageContentType' || (e.keyword === 'required' && e.params.missingProperty === 'content'),
    )
  ) {
    return { code: 'CHAT102', message: 'A chat message must be non-blank TEXT of at most 2000 characters.' };
  }
  return {
    code: 'COMMON001',
    message: `The message does not match ChatMessageRequest: ${errors.map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')}`,
  };
}

export interface ChatServiceDeps {
  db: DatabasePort;
  agent: ChatAgent;
  publishers: Publishers;
  log: Logger;
  clock: () => number;
  /** messages per member and minute, counted in `store` (over every instance with Redis); null: no limit */
  messageLimit?: { store: RateLimitStore; perMinute: number } | null;
  /** told of each message refused by that limit (metrics) */
  onMessageLimited?: () => void;
}

export function createChatService(deps: ChatServiceDeps): ChatService {
  const { db, publishers, clock, messageLimit } = deps;
  const rooms = new Map<number, Promise<void>>();
  const now = () => new Date(clock()).toISOString();
  const isGenerating = async (tripPlanId: number) => (await findTripPlanById(db, tripPlanId))?.generationStatus === 'GENERATING';

  async function answer(principal: Principal, chatRoomId: number, text: string): Promise<void> {
    for (const chunk of chunkText(text, 60)) {
      publishers.chat(principal.memberId, chatRoomId, { message: chunk, isComplete: false, timestamp: now(), messageStreamType: 'CHAT' });
    }
    await insertChatMessage(db, { chatRoomId, messageType: 'ASSISTANT', content: text, createdAt: clock() });
    publishers.chat(principal.memberId, chatRoomId, { message: text, isComplete: true, timestamp: now(), messageStreamType: 'CHAT' });
  }

  function refuseWhileGenerating(principal: Principal, chatRoomId: number, tripPlanId: number, message: string): void {
    publishers.error(
      { memberId: principal.memberId, chatRoomId, tripPlanId },
      {
        timestamp: now(),
        code: 'TRIP106',
        message,
        path: channelAddress('chatMessages', { chatRoomId }),
        errors: null,
      },
    );
  }

  async function converse(principal: Principal, chatRoomId: number, tripPlanId: number, request: ChatMessageRequest): Promise<void> {
    const plan = await findTripPlanById(db, tripPlanId);
    if (!plan) return;
    // Accepted before a generation started, but its turn came after: not acted on.
    if (await isGenerating(plan.id)) return refuseWhileGenerating(principal, chatRoomId, plan.id, GENERATING_REFUSAL);
    const decision = await deps.agent.decide(
      { tripPlanId: plan.id, region: plan.region, content: request.content, scheduledPlaceId: request.scheduledPlaceId, days: await listDays(db, plan.id) },
      AbortSignal.timeout(60_000),
    );
    if (!decision.edit) return answer(principal, chatRoomId, decision.reply);
    // A generation may have started while the agent was deciding; its days are not ours to edit.
    if (await isGenerating(plan.id)) {
      return refuseWhileGenerating(
        principal,
        chatRoomId,
        plan.id,
        'A generation started before your edit could be applied; nothing was changed. Ask again once it is complete.',
      );
    }
    let result: AppliedDayEdit;
    try {
      result = await applyDayEdit(db, plan, decision.edit);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return answer(principal, chatRoomId, `${error.message} Nothing was changed.`);
    }
    announceDayEdit(publishers, clock, plan, result);
    await answer(principal, chatRoomId, decision.reply ? `${decision.reply}\n\n${result.summary}` : result.summary);
  }

  return {
    async receive(principal, chatRoomId, body) {
      // Counted first, whatever the message: each one costs storage, and with the OpenAI agent a paid call.
      if (messageLimit) {
        const hit = await messageLimit.store.hit(String(principal.memberId));
        if (hit.limited) {
          deps.onMessageLimited?.();
          const seconds = Math.max(1, Math.ceil(hit.resetMs / 1000));
          return {
            code: 'CHAT103',
            message: `Too many chat messages (at most ${messageLimit.perMinute} a minute); the next one is taken in ${seconds} seconds.`,
          };
        }
      }
      const request = readChatMessage(body);
      if ('code' in request) return request;
      const room = await findOwnChatRoom(db, principal.memberId, chatRoomId);
      if (!room) return { code: 'COMMON001', message: 'Chat room not found.' };
      if (await isGenerating(room.tripPlanId)) return { code: 'TRIP106', message: GENERATING_REFUSAL };
      await insertChatMessage(db, { chatRoomId, messageType: 'USER', content: request.content, createdAt: clock() });
      const previous = rooms.get(chatRoomId) ?? Promise.resolve();
      const next = previous
        .then(() => converse(principal, chatRoomId, room.tripPlanId, request))
        .catch((error: unknown) => {
          deps.log.error({ err: error, chatRoomId }, 'chat answer failed');
          publishers.error(
            { memberId: principal.memberId, chatRoomId, tripPlanId: room.tripPlanId },
            {
              timestamp: now(),
              code: 'AI002',
              message: 'The assistant could not answer; please try again.',
              path: channelAddress('chatMessages', { chatRoomId }),
              errors: null,
            },
          );
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
