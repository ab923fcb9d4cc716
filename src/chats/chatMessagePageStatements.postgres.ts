// A chat history page on PostgreSQL (chatMessagePageStatements.ts): a named statement on the pool
// the port's run() gave.
import type { PgDb } from '../db/postgresDatabase.js';
import { chatPageKey, ownChatPageSql, type ChatMessageItem, type ChatPageParameter } from './chatMessagePage.js';
import type { ChatMessagePageStatements } from './chatMessagePageStatements.js';

const pgParameters: Record<ChatPageParameter, string> = { chatRoomId: '$1', memberId: '$2', limit: '$3', beforeId: '$4' };
const texts = [false, true].map((withCursor) => ownChatPageSql(withCursor, (name) => pgParameters[name]));

export const postgresChatMessagePage: ChatMessagePageStatements = {
  async page(q, { memberId, chatRoomId, limit, beforeId }) {
    const withCursor = beforeId !== null;
    const values = withCursor ? [chatRoomId, memberId, limit, beforeId] : [chatRoomId, memberId, limit];
    // A named statement: each pooled connection parses and plans it once.
    const result = await (q as unknown as PgDb).$client.query<ChatMessageItem>({ name: chatPageKey(withCursor), text: texts[Number(withCursor)]!, values });
    return result.rows;
  },
};
