// Chat rooms (one per trip plan) and their messages (a page of them: chatMessagePage.ts).
import { and, eq } from 'drizzle-orm';
import type { DatabasePort, PgQueries } from '../db/databasePort.js';
import type { chatMessages, chatRooms } from '../db/schema.pg.js';

export type ChatRoomRow = typeof chatRooms.$inferSelect;
export type ChatMessageRow = typeof chatMessages.$inferSelect;

export function findOwnChatRoom(db: DatabasePort, memberId: number, chatRoomId: number): Promise<ChatRoomRow | undefined> {
  const { chatRooms } = db.t;
  return db.run(
    async (q) =>
      (
        await q
          .select()
          .from(chatRooms)
          .where(and(eq(chatRooms.id, chatRoomId), eq(chatRooms.memberId, memberId)))
      )[0],
  );
}

export function findChatRoom(db: DatabasePort, chatRoomId: number): Promise<ChatRoomRow | undefined> {
  const { chatRooms } = db.t;
  return db.run(async (q) => (await q.select().from(chatRooms).where(eq(chatRooms.id, chatRoomId)))[0]);
}

export function findChatMessage(db: DatabasePort, chatRoomId: number, messageId: number): Promise<ChatMessageRow | undefined> {
  const { chatMessages } = db.t;
  return db.run(
    async (q) =>
      (
        await q
          .select()
          .from(chatMessages)
          .where(and(eq(chatMessages.chatRoomId, chatRoomId), eq(chatMessages.id, messageId)))
      )[0],
  );
}

type NewChatMessage = { chatRoomId: number; messageType: 'USER' | 'ASSISTANT'; content: string; createdAt: number };

export function insertChatMessage(db: DatabasePort, values: NewChatMessage): Promise<ChatMessageRow> {
  return db.run((q) => insertChatMessageWith(db, q, values));
}

/** insertChatMessage on a transaction the caller holds (the generation runner fences it). */
export async function insertChatMessageWith(db: DatabasePort, q: PgQueries, values: NewChatMessage): Promise<ChatMessageRow> {
  const { chatMessages } = db.t;
  const [row] = await q
    .insert(chatMessages)
    .values({ ...values, contentType: 'TEXT' })
    .returning();
  return row!;
}
