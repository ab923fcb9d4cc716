// The pending sign-ins' save lock on PostgreSQL (pendingLoginSaveLock.ts): a transaction-level
// advisory lock, held until the save commits or rolls back.
import { sql } from 'drizzle-orm';
import type { PendingLoginSaveLock } from './pendingLoginSaveLock.js';

/** The advisory lock the save takes: 'oidc' in ASCII. */
const SAVE_LOCK = 0x6f696463;

export const postgresPendingLoginSaveLock: PendingLoginSaveLock = {
  take: async (q) => void (await q.execute(sql`SELECT pg_advisory_xact_lock(${SAVE_LOCK})`)),
};
