// What a claim of a waiting job (generationLeases.ts, claimGeneration) locks, which differs per
// engine: on PostgreSQL, where instances claim at the same time, the claim skips rows another
// instance is claiming and serialises the claims of one member (the per-member limit holds across
// instances; generationClaimLocks.postgres.ts); on SQLite its one connection runs one transaction
// at a time, so there is nothing to lock (generationClaimLocks.sqlite.ts). The composition root
// picks the opened engine's.
import type { SQL } from 'drizzle-orm';
import type { PlainSql } from '../db/plainSql.js';

export interface GenerationClaimLocks {
  /** Waits, in the claim's transaction (`s`), until no other claim of a job of this member is open; held until it ends. */
  lockMemberClaims(s: PlainSql, memberId: number): Promise<void>;
  /** The end of the claim's sub-select of the plan row: a row another open claim is taking is skipped, not waited for. */
  skipRowsBeingClaimed: SQL;
}

declare module '../db/databasePort.js' {
  interface EngineStatements {
    generationClaimLocks: GenerationClaimLocks;
  }
}
