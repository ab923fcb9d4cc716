// A claim's locks on PostgreSQL (generationClaimLocks.ts): a transaction-level advisory lock per
// member, and FOR UPDATE SKIP LOCKED on the plan row.
import { sql } from 'drizzle-orm';
import type { GenerationClaimLocks } from './generationClaimLocks.js';

/** The first key of the advisory lock a claim takes per member: 'gc' (generation claim). */
const MEMBER_CLAIM_LOCK = 0x6763;

export const postgresGenerationClaimLocks: GenerationClaimLocks = {
  lockMemberClaims: (s, memberId) => s.run(sql`SELECT pg_advisory_xact_lock(CAST(${MEMBER_CLAIM_LOCK} AS integer), CAST(${memberId} AS integer))`),
  skipRowsBeingClaimed: sql`FOR UPDATE SKIP LOCKED`,
};
