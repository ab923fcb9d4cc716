// Chat over STOMP: a SEND to /pub/chat/{chatRoomId}/message is checked against asyncapi.yaml's
// ChatMessageRequest, stored as a USER message waiting for its turn, and answered on the chat
// channel by the chat agent. A room's messages are answered one at a time, in the order they were
// stored, across every instance (chatTurns.ts says how and why): the instance that stored one
// takes the room's turn when it is free, and whoever holds it answers what waits. An edit of the
// plan is applied as every day edit is (trips/savedDayEdits.ts), in one transaction with the end of
// the message's turn and its ASSISTANT answer, then announced (trips/dayEditAnnouncement.ts) and
// answered on the chat channel. While the plan is GENERATING the chat takes no messages and applies
// no edit (TRIP106 on the errors channel, asyncapi.yaml sendChatMessage). A member's messages are
// limited per minute over every instance (CHAT_MESSAGES_PER_MINUTE): beyond, CHAT103 on the errors
// channel, and nothing is stored or asked of the agent.
// The turns held here are heldTurns.ts; the answer to one message, chatAnswers.ts.
import type { AsyncSchemas } from '../../generated/asyncapi.js';
import { messageValidators } from '../../generated/validators.js';
import type { DatabasePort } from '../db/databasePort.js';
import type { Principal } from '../kernel/principal.js';
import type { RateLimitStore } from '../rateLimit/rateLimitStore.js';
import type { Logger } from '../kernel/logger.js';
import type { Publishers } from '../delivery/publishers.js';
import { findTripPlanById } from '../trips/tripPlanRepository.js';
import type { ChatAgent } from './chatAgent.js';
import { GENERATING_REFUSAL } from './chatAnswers.js';
import { findOwnChatRoom } from './chatRepository.js';
import { insertPendingUserMessage } from './chatTurns.js';
import { heldTurnsOf, idle, startTurnSweep, wake, type HeldTurns, type TurnTimings } from './heldTurns.js';

export type { TurnTimings } from './heldTurns.js';

type ChatMessageRequest = AsyncSchemas['ChatMessageRequest'];
export type ChatRefusal = { code: 'CHAT102' | 'CHAT103' | 'COMMON001' | 'COMMON002' | 'TRIP106'; message: string };

export interface ChatService {
  /** First part of a SEND: check and store; the answer follows, after the room's earlier messages. */
  receive(principal: Principal, chatRoomId: number, body: string): Promise<'accepted' | ChatRefusal>;
  /** resolves when this instance holds no room's turn (tests) */
  idle(): Promise<void>;
  /** stops the sweep and takes no more turns, then waits until the turns held have answered what waits (shutdown) */
  stop(): Promise<void>;
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
  turns: TurnTimings;
  /** messages per member and minute, counted in `store` (over every instance with Redis); null: no limit */
  messageLimit?: { store: RateLimitStore; perMinute: number } | null;
  /** told of each message refused by that limit (metrics) */
  onMessageLimited?: () => void;
}

export function createChatService(deps: ChatServiceDeps): ChatService {
  const held = heldTurnsOf(deps);
  const sweep = startTurnSweep(held);
  return {
    receive: (principal, chatRoomId, body) => receive(deps, held, principal, chatRoomId, body),
    idle: () => idle(held),
    async stop() {
      held.stopped = true;
      clearInterval(sweep);
      await idle(held);
    },
  };
}

async function receive(deps: ChatServiceDeps, held: HeldTurns, principal: Principal, chatRoomId: number, body: string): Promise<'accepted' | ChatRefusal> {
  const { db, clock, messageLimit } = deps;
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
  if ((await findTripPlanById(db, room.tripPlanId))?.generationStatus === 'GENERATING') return { code: 'TRIP106', message: GENERATING_REFUSAL };
  await insertPendingUserMessage(db, { chatRoomId, content: request.content, scheduledPlaceId: request.scheduledPlaceId ?? null, createdAt: clock() });
  wake(held, chatRoomId);
  return 'accepted';
}
