// What makes the count and the insert of a pending sign-in one step for every instance of the
// database (oidcPendingLoginRepository.ts): on PostgreSQL an advisory lock the save takes first
// (pendingLoginSaveLock.postgres.ts), on SQLite nothing more than its one writer
// (pendingLoginSaveLock.sqlite.ts). The composition root picks the opened engine's.
import type { PgQueries } from '../db/databasePort.js';

export interface PendingLoginSaveLock {
  /** Taken first thing in the save's transaction (on its handle `q`): saves of every instance run one after another. */
  take(q: PgQueries): Promise<void>;
}

declare module '../db/databasePort.js' {
  interface EngineStatements {
    pendingLoginSaveLock: PendingLoginSaveLock;
  }
}
