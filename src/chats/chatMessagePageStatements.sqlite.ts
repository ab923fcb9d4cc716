// A chat history page on SQLite (chatMessagePageStatements.ts): a better-sqlite3 statement prepared
// once per connection, on the connection the port's run() gave.
import type { Db } from '../db/database.js';
import { prepared } from '../db/preparedStatements.js';
import { chatPageKey, ownChatPageSql, type ChatMessageItem } from './chatMessagePage.js';
import type { ChatMessagePageStatements } from './chatMessagePageStatements.js';

export const sqliteChatMessagePage: ChatMessagePageStatements = {
  page(q, { memberId, chatRoomId, limit, beforeId }) {
    const client = (q as unknown as Db).$client;
    const statement = prepared(client, chatPageKey(beforeId !== null), () =>
      client.prepare<Record<string, unknown>, ChatMessageItem>(ownChatPageSql(beforeId !== null)),
    );
    return Promise.resolve(statement.all(beforeId === null ? { chatRoomId, memberId, limit } : { chatRoomId, memberId, limit, beforeId }));
  },
};
