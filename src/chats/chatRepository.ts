// Chat rooms (one per trip plan) and their messages, newest first, keyset-paged by id.
import { and, desc, eq, lt } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { chatMessages, chatRooms } from '../db/schema.js';

export type ChatRoomRow = typeof chatRooms.$inferSelect;
export type ChatMessageRow = typeof chatMessages.$inferSelect;

export function findOwnChatRoom(db: Db, memberId: number, chatRoomId: number): ChatRoomRow | undefined {
  return db
    .select()
    .from(chatRooms)
    .where(and(eq(chatRooms.id, chatRoomId), eq(chatRooms.memberId, memberId)))
    .get();
}

export function findChatMessage(db: Db, chatRoomId: number, messageId: number): ChatMessageRow | undefined {
  return db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.chatRoomId, chatRoomId), eq(chatMessages.id, messageId)))
    .get();
}

/** size + 1 messages older than `beforeId` (or the newest), newest first. */
export function listChatMessages(db: Db, chatRoomId: number, size: number, beforeId: number | null): ChatMessageRow[] {
  return db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.chatRoomId, chatRoomId), beforeId === null ? undefined : lt(chatMessages.id, beforeId)))
    .orderBy(desc(chatMessages.id))
    .limit(size + 1)
    .all();
}

export function insertChatMessage(
  db: Db,
  values: { chatRoomId: number; messageType: 'USER' | 'ASSISTANT'; content: string; createdAt: number },
): ChatMessageRow {
  return db
    .insert(chatMessages)
    .values({ ...values, contentType: 'TEXT' })
    .returning()
    .get();
}
