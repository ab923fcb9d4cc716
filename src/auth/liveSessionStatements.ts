// The live-session lookup as each engine runs it (liveSessionLookup.ts has its SQL text): an
// engine-native statement prepared once, returning the row as an array, liveSessionStatements.sqlite.ts
// on better-sqlite3 and liveSessionStatements.postgres.ts on node-postgres. The composition root
// picks the opened engine's.
import type { LiveSessionOwner } from './liveSessionLookup.js';

export interface LiveSessionStatements {
  /** The member and role of the session, or undefined when it is revoked, expired (by `nowMs`) or unknown. */
  owner(sessionId: string, nowMs: number): Promise<LiveSessionOwner | undefined>;
  /** Called by the statement that ends the session, in the same turn of the connection: nothing may answer it live afterwards. */
  forget(sessionId: string): void;
}

declare module '../db/databasePort.js' {
  interface EngineStatements {
    liveSessions: LiveSessionStatements;
  }
}
