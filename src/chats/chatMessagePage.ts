// A page of a chat's history, newest first, keyset-paged by id: one hand-written statement prepared
// once per engine (chatMessagePageStatements.sqlite.ts, .postgres.ts), like the trip list page
// (trips/tripPlanList.ts). Through drizzle's builder the page and its two checks (the room is the
// caller's, the cursor is a message of it) were three unprepared queries and 25-45% slower than a
// trip list page (the performance work, `npm run bench -- chatpage`). The checks are folded into the
// page's WHERE: a room of someone else, or a cursor from another room, gives no rows, and only an
// empty page asks which it was (chatRepository.ts), so an answered page costs one statement.
import type { DatabasePort } from '../db/databasePort.js';
import type { ChatMessageRow } from './chatRepository.js';

export type ChatMessageItem = Omit<ChatMessageRow, 'chatRoomId'>;

export type ChatPageParameter = 'chatRoomId' | 'memberId' | 'limit' | 'beforeId';
const sqliteParameter = (name: ChatPageParameter) => `@${name}`;

/** The SQL of a page, its parameters written by `parameter`. */
export function ownChatPageSql(withCursor: boolean, parameter: (name: ChatPageParameter) => string = sqliteParameter): string {
  const room = parameter('chatRoomId');
  const before = withCursor
    ? `AND m.id < ${parameter('beforeId')}
       AND EXISTS (SELECT 1 FROM chat_message c WHERE c.id = ${parameter('beforeId')} AND c.chat_room_id = ${room})`
    : '';
  return `SELECT m.id, m.message_type AS "messageType", m.content, m.content_type AS "contentType", m.created_at AS "createdAt"
    FROM chat_message m
    WHERE m.chat_room_id = (SELECT r.id FROM chat_room r WHERE r.id = ${room} AND r.member_id = ${parameter('memberId')}) ${before}
    ORDER BY m.id DESC LIMIT ${parameter('limit')}`;
}

/** The name of a page's statement: one with a cursor, one without. */
export const chatPageKey = (withCursor: boolean) => `ownChatPage:${withCursor}`;

/**
 * size + 1 messages of the member's chat room older than `beforeId` (or the newest), newest first.
 * No rows when the room is not the member's, or `beforeId` is not a message of the room.
 */
export function ownChatPageRows(db: DatabasePort, memberId: number, chatRoomId: number, size: number, beforeId: number | null): Promise<ChatMessageItem[]> {
  return db.run((q) => db.statements.chatMessagePage.page(q, { memberId, chatRoomId, limit: size + 1, beforeId }));
}
