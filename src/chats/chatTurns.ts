// A chat room's messages are answered one at a time, in the order they were stored, whichever
// instance received them, with nothing but the database (SQLite, or PostgreSQL with or without
// Redis). Two facts in the database make that order:
// - a USER message not answered yet has a row in chat_pending_message, written in the message's own
//   insert and deleted in the transaction that saves its answer (and its edit);
// - the room's turn (chat_room.turn_token, turn_until): an instance takes it with one conditional
//   UPDATE when nobody holds it or the holder's lease ran out, renews it while it works, and gives
//   it back when no message waits.
// Whoever holds the turn answers the room's pending messages by ascending id, one at a time. Why
// that is correct:
// - one at a time: a claim succeeds only when the turn is free or ran out; each answer's
//   transaction first renews the turn under the claim's token (fenceTurnWith), which locks the
//   room's row, so a holder whose lease ran out and was taken over writes nothing (its transaction
//   rolls back, and the new holder answers the message);
// - in order: a message stored after another's RECEIPT has a larger id, and the earlier one is
//   visible by then, so it is answered first;
// - each answered once: its pending row is deleted in the answer's transaction, which fails when
//   the row is gone;
// - none left waiting: the holder gives the turn back and then looks for pending messages again, so
//   a message whose instance found the turn taken just before that is not missed; a holder that
//   stopped (crash, kill) blocks the room at most until its lease runs out, when some instance's
//   sweep (roomsWaitingForATurn) takes the turn and answers what waits.
import { and, asc, eq, isNull, lt, or } from 'drizzle-orm';
import type { DatabasePort, PgQueries } from '../db/databasePort.js';
import type { ChatMessageRow } from './chatRepository.js';

/** The turn was taken over (its lease ran out) or the message answered elsewhere: this holder stops. */
export class TurnLost extends Error {}

export interface PendingMessage {
  id: number;
  content: string;
  scheduledPlaceId: number | null;
}

type NewUserMessage = { chatRoomId: number; content: string; scheduledPlaceId: number | null; createdAt: number };

/** Stores a USER message and its place in the room's queue, in one transaction. */
export function insertPendingUserMessage(db: DatabasePort, { scheduledPlaceId, ...values }: NewUserMessage): Promise<ChatMessageRow> {
  const { chatMessages, chatPendingMessages } = db.t;
  return db.tx(async (q) => {
    const [row] = await q
      .insert(chatMessages)
      .values({ ...values, messageType: 'USER', contentType: 'TEXT' })
      .returning();
    await q.insert(chatPendingMessages).values({ messageId: row!.id, chatRoomId: values.chatRoomId, scheduledPlaceId });
    return row!;
  });
}

/** Takes the room's turn for `token` when nobody holds it or its lease ran out. */
export function claimTurn(db: DatabasePort, chatRoomId: number, token: string, nowMs: number, leaseMs: number): Promise<boolean> {
  const { chatRooms } = db.t;
  return db.run(
    async (q) =>
      (
        await q
          .update(chatRooms)
          .set({ turnToken: token, turnUntil: nowMs + leaseMs })
          .where(and(eq(chatRooms.id, chatRoomId), or(isNull(chatRooms.turnToken), lt(chatRooms.turnUntil, nowMs))))
          .returning({ id: chatRooms.id })
      ).length === 1,
  );
}

function renewal(db: DatabasePort, q: PgQueries, chatRoomId: number, token: string, nowMs: number, leaseMs: number) {
  const { chatRooms } = db.t;
  return q
    .update(chatRooms)
    .set({ turnUntil: nowMs + leaseMs })
    .where(and(eq(chatRooms.id, chatRoomId), eq(chatRooms.turnToken, token)))
    .returning({ id: chatRooms.id });
}

/** The holder's heartbeat: false when the turn is no longer `token`'s. */
export function renewTurn(db: DatabasePort, chatRoomId: number, token: string, nowMs: number, leaseMs: number): Promise<boolean> {
  return db.run(async (q) => (await renewal(db, q, chatRoomId, token, nowMs, leaseMs)).length === 1);
}

/** Gives the turn back (nothing when it is no longer `token`'s). */
export function releaseTurn(db: DatabasePort, chatRoomId: number, token: string): Promise<void> {
  const { chatRooms } = db.t;
  return db.run(async (q) => {
    await q
      .update(chatRooms)
      .set({ turnToken: null, turnUntil: null })
      .where(and(eq(chatRooms.id, chatRoomId), eq(chatRooms.turnToken, token)))
      .returning({ id: chatRooms.id });
  });
}

/** The room's pending message with the smallest id. */
export function nextPendingMessage(db: DatabasePort, chatRoomId: number): Promise<PendingMessage | undefined> {
  const { chatMessages, chatPendingMessages } = db.t;
  return db.run(
    async (q) =>
      (
        await q
          .select({ id: chatMessages.id, content: chatMessages.content, scheduledPlaceId: chatPendingMessages.scheduledPlaceId })
          .from(chatPendingMessages)
          .innerJoin(chatMessages, eq(chatMessages.id, chatPendingMessages.messageId))
          .where(eq(chatPendingMessages.chatRoomId, chatRoomId))
          .orderBy(asc(chatPendingMessages.messageId))
          .limit(1)
      )[0],
  );
}

/** Rooms with pending messages and nobody holding their turn (free, or its lease ran out). */
export function roomsWaitingForATurn(db: DatabasePort, nowMs: number): Promise<number[]> {
  const { chatRooms, chatPendingMessages } = db.t;
  return db.run(async (q) =>
    (
      await q
        .selectDistinct({ id: chatPendingMessages.chatRoomId })
        .from(chatPendingMessages)
        .innerJoin(chatRooms, eq(chatRooms.id, chatPendingMessages.chatRoomId))
        .where(or(isNull(chatRooms.turnToken), lt(chatRooms.turnUntil, nowMs)))
    ).map((r) => r.id),
  );
}

/**
 * The end of a message's turn, on the transaction that saves its answer (and its edit): the turn
 * renewed under `token` (the fence: TurnLost when it was taken over), the message's pending row
 * deleted (TurnLost when it is gone: answered elsewhere, or the room deleted), and `answer`, when
 * there is one, stored as the ASSISTANT message.
 */
export async function answeredWith(
  db: DatabasePort,
  q: PgQueries,
  turn: { chatRoomId: number; token: string; nowMs: number; leaseMs: number },
  messageId: number,
  answer: string | null,
): Promise<void> {
  const { chatMessages, chatPendingMessages } = db.t;
  if ((await renewal(db, q, turn.chatRoomId, turn.token, turn.nowMs, turn.leaseMs)).length !== 1) throw new TurnLost('the room’s turn was taken over');
  const removed = await q.delete(chatPendingMessages).where(eq(chatPendingMessages.messageId, messageId)).returning({ id: chatPendingMessages.messageId });
  if (removed.length !== 1) throw new TurnLost(`message ${messageId} is no longer pending`);
  if (answer !== null) {
    await q.insert(chatMessages).values({ chatRoomId: turn.chatRoomId, messageType: 'ASSISTANT', content: answer, contentType: 'TEXT', createdAt: turn.nowMs });
  }
}

/** answeredWith in a transaction of its own (an answer without an edit). */
export function answered(db: DatabasePort, turn: Parameters<typeof answeredWith>[2], messageId: number, answer: string | null): Promise<void> {
  return db.tx((q) => answeredWith(db, q, turn, messageId, answer));
}
