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
import { randomUUID } from 'node:crypto';
import { channelAddress, type AsyncSchemas } from '../../generated/asyncapi.js';
import { messageValidators } from '../../generated/validators.js';
import type { DatabasePort } from '../db/databasePort.js';
import { AppError } from '../kernel/appError.js';
import type { Principal } from '../kernel/principal.js';
import type { RateLimitStore } from '../rateLimit/rateLimitStore.js';
import type { Logger } from '../kernel/logger.js';
import type { Publishers } from '../delivery/publishers.js';
import { chunkText } from '../text/textChunks.js';
import { listDays } from '../trips/dailyPlanRepository.js';
import { announceDayEdit } from '../trips/dayEditAnnouncement.js';
import { applyDayEdit, type AppliedDayEdit } from '../trips/savedDayEdits.js';
import { findTripPlanById } from '../trips/tripPlanRepository.js';
import type { ChatAgent } from './chatAgent.js';
import { findChatRoom, findOwnChatRoom, type ChatRoomRow } from './chatRepository.js';
import {
  answered,
  answeredWith,
  claimTurn,
  insertPendingUserMessage,
  nextPendingMessage,
  releaseTurn,
  renewTurn,
  roomsWaitingForATurn,
  TurnLost,
  type PendingMessage,
} from './chatTurns.js';

type ChatMessageRequest = AsyncSchemas['ChatMessageRequest'];
export type ChatRefusal = { code: 'CHAT102' | 'CHAT103' | 'COMMON001' | 'COMMON002' | 'TRIP106'; message: string };

const GENERATING_REFUSAL = 'The itinerary is being generated; send your message once it is complete.';

export interface ChatService {
  /** First part of a SEND: check and store; the answer follows, after the room's earlier messages. */
  receive(principal: Principal, chatRoomId: number, body: string): Promise<'accepted' | ChatRefusal>;
  /** resolves when this instance holds no room's turn (tests) */
  idle(): Promise<void>;
  /** stops the sweep and takes no more turns, then waits until the turns held have answered what waits (shutdown) */
  stop(): Promise<void>;
}

/** The lease of a room's turn, as of a generation's (config.ts, GENERATION_LEASE_MS and the two after it). */
export interface TurnTimings {
  leaseMs: number;
  heartbeatMs: number;
  /** how often an instance looks for rooms whose turn ran out while messages wait */
  sweepMs: number;
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
  const { db, publishers, clock, log, turns, messageLimit } = deps;
  const now = () => new Date(clock()).toISOString();
  /** the rooms whose turn this instance is taking or holds, and those to look at again after it */
  const holding = new Map<number, Promise<void>>();
  const again = new Set<number>();
  let stopped = false;

  function publishAnswer(room: ChatRoomRow, text: string): void {
    for (const chunk of chunkText(text, 60)) {
      publishers.chat(room.memberId, room.id, { message: chunk, isComplete: false, timestamp: now(), messageStreamType: 'CHAT' });
    }
    publishers.chat(room.memberId, room.id, { message: text, isComplete: true, timestamp: now(), messageStreamType: 'CHAT' });
  }

  function publishError(room: ChatRoomRow, code: 'TRIP106' | 'AI002', message: string): void {
    publishers.error(
      { memberId: room.memberId, chatRoomId: room.id, tripPlanId: room.tripPlanId },
      { timestamp: now(), code, message, path: channelAddress('chatMessages', { chatRoomId: room.id }), errors: null },
    );
  }

  /** Answers one pending message while holding the room's turn; TurnLost when the turn was taken over. */
  async function answer(room: ChatRoomRow, token: string, message: PendingMessage): Promise<void> {
    const turn = () => ({ chatRoomId: room.id, token, nowMs: clock(), leaseMs: turns.leaseMs });
    const plan = await findTripPlanById(db, room.tripPlanId);
    // Deleted with its room and messages since the turn began: nothing is left to answer.
    if (!plan) throw new TurnLost('the plan was deleted');
    // Stored before a generation started, but its turn came after: not acted on.
    if (plan.generationStatus === 'GENERATING') {
      await answered(db, turn(), message.id, null);
      return publishError(room, 'TRIP106', GENERATING_REFUSAL);
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
      return publishAnswer(room, decision.reply);
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
        return publishError(room, 'TRIP106', 'A generation started before your edit could be applied; nothing was changed. Ask again once it is complete.');
      }
      const refusal = `${error.message} Nothing was changed.`;
      await answered(db, turn(), message.id, refusal);
      return publishAnswer(room, refusal);
    }
    announceDayEdit(publishers, clock, plan, result);
    publishAnswer(room, confirmation(result));
  }

  /** answer(), except that a failure other than a lost turn ends the message's turn with AI002. */
  async function answerOrFail(room: ChatRoomRow, token: string, message: PendingMessage): Promise<void> {
    try {
      await answer(room, token, message);
    } catch (error) {
      if (error instanceof TurnLost) throw error;
      log.error({ err: error, chatRoomId: room.id }, 'chat answer failed');
      // Not answered, but not waiting any more either (the next message's turn must come); when
      // even this fails (storage away) it stays pending and is tried again at the next turn.
      await answered(db, { chatRoomId: room.id, token, nowMs: clock(), leaseMs: turns.leaseMs }, message.id, null);
      publishError(room, 'AI002', 'The assistant could not answer; please try again.');
    }
  }

  /** Takes the room's turn and answers its pending messages until none waits; returns when another holder has the turn. */
  async function holdTurn(chatRoomId: number): Promise<void> {
    for (;;) {
      const token = randomUUID();
      // Taken: its holder answers what waits (or, if it stopped, a sweep once its lease ran out).
      if (!(await claimTurn(db, chatRoomId, token, clock(), turns.leaseMs))) return;
      const heartbeat = setInterval(() => {
        renewTurn(db, chatRoomId, token, clock(), turns.leaseMs).catch((error: unknown) => log.warn({ err: error, chatRoomId }, 'chat turn not renewed'));
      }, turns.heartbeatMs);
      heartbeat.unref();
      try {
        // Gone with its plan: its messages went with it.
        const room = await findChatRoom(db, chatRoomId);
        if (!room) return;
        for (let message = await nextPendingMessage(db, chatRoomId); message; message = await nextPendingMessage(db, chatRoomId)) {
          await answerOrFail(room, token, message);
        }
      } catch (error) {
        if (!(error instanceof TurnLost)) throw error;
        log.warn({ chatRoomId, reason: error.message }, 'chat turn lost');
        return;
      } finally {
        clearInterval(heartbeat);
        await releaseTurn(db, chatRoomId, token);
      }
      // A message stored while the turn was being given back found it taken: look once more.
      if (stopped || !(await nextPendingMessage(db, chatRoomId))) return;
    }
  }

  /** Takes the room's turn unless this instance already holds it (then it looks again once done). */
  function wake(chatRoomId: number): void {
    if (stopped) return;
    if (holding.has(chatRoomId)) {
      again.add(chatRoomId);
      return;
    }
    const held = holdTurn(chatRoomId)
      .catch((error: unknown) => log.error({ err: error, chatRoomId }, 'chat turn failed'))
      .finally(() => {
        holding.delete(chatRoomId);
        if (again.delete(chatRoomId)) wake(chatRoomId);
      });
    holding.set(chatRoomId, held);
  }

  const sweep = setInterval(() => {
    roomsWaitingForATurn(db, clock())
      .then((rooms) => rooms.forEach(wake))
      .catch((error: unknown) => log.warn({ err: error }, 'chat turn sweep failed'));
  }, turns.sweepMs);
  sweep.unref();

  async function idle(): Promise<void> {
    while (holding.size > 0) await Promise.allSettled([...holding.values()]);
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
      if ((await findTripPlanById(db, room.tripPlanId))?.generationStatus === 'GENERATING') return { code: 'TRIP106', message: GENERATING_REFUSAL };
      await insertPendingUserMessage(db, { chatRoomId, content: request.content, scheduledPlaceId: request.scheduledPlaceId ?? null, createdAt: clock() });
      wake(chatRoomId);
      return 'accepted';
    },
    idle,
    async stop() {
      stopped = true;
      clearInterval(sweep);
      await idle();
    },
  };
}
