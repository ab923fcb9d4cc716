// A claim's locks on SQLite (generationClaimLocks.ts): none, the claim's transaction (BEGIN
// IMMEDIATE, under the port's mutex) is the only one open.
import { sql } from 'drizzle-orm';
import type { GenerationClaimLocks } from './generationClaimLocks.js';

export const sqliteGenerationClaimLocks: GenerationClaimLocks = {
  lockMemberClaims: () => Promise.resolve(),
  skipRowsBeingClaimed: sql``,
};
