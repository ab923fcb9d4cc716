// A chat history page as each engine runs it (chatMessagePage.ts has its SQL text): an
// engine-native statement prepared once, chatMessagePageStatements.sqlite.ts on better-sqlite3 and
// chatMessagePageStatements.postgres.ts on node-postgres. The composition root picks the opened
// engine's.
import type { PgQueries } from '../db/databasePort.js';
import type { ChatMessageItem } from './chatMessagePage.js';

export interface ChatPageQuery {
  memberId: number;
  chatRoomId: number;
  /** the rows to return at most */
  limit: number;
  /** only messages older than this one (a message of the room), or null for the newest */
  beforeId: number | null;
}

export interface ChatMessagePageStatements {
  /** The page, newest first, on a handle the port's run() gave; no rows when the room is not the member's or the cursor not of the room. */
  page(q: PgQueries, query: ChatPageQuery): Promise<ChatMessageItem[]>;
}

declare module '../db/databasePort.js' {
  interface EngineStatements {
    chatMessagePage: ChatMessagePageStatements;
  }
}
