// Pending OpenID Connect sign-ins, in the database so that any instance can complete one another
// instance started. A row is found by the hash of the browser's cookie and taken exactly once, by
// the callback that carries its `state`. Anyone may start a sign-in, so their number is bounded per
// client address and in total; the count and the insert are one step for every instance of the
// database (pendingLoginSaveLock.ts: PostgreSQL's advisory lock, SQLite's one writer).
import { and, eq, lte, sql } from 'drizzle-orm';
import type { DatabasePort } from '../db/databasePort.js';
import type { oidcPendingLogins } from '../db/schema.pg.js';

export type PendingLogin = typeof oidcPendingLogins.$inferSelect;

export interface PendingLoginLimits {
  perClient: number;
  total: number;
}

/** Why a sign-in was not saved, and when the oldest pending sign-in in the way expires. */
export type PendingLoginRefusal = { refused: 'client' | 'total'; oldestExpiresAt: number };

/**
 * Saves `login` unless its client already has `limits.perClient` pending sign-ins or all clients
 * together `limits.total`; drops the ones that expired by `nowMs` first (nobody can finish them).
 */
export function savePendingLogin(db: DatabasePort, login: PendingLogin, limits: PendingLoginLimits, nowMs: number): Promise<PendingLoginRefusal | null> {
  const { oidcPendingLogins: t } = db.t;
  return db.tx(async (q) => {
    await db.statements.pendingLoginSaveLock.take(q);
    await q.delete(t).where(lte(t.expiresAt, nowMs)).returning({ id: t.id });
    const ofClient = sql`CASE WHEN ${t.clientKey} = ${login.clientKey} THEN ${t.expiresAt} END`;
    const [pending] = await q
      .select({
        total: sql<number>`count(*)`.mapWith(Number),
        ofClient: sql<number>`count(${ofClient})`.mapWith(Number),
        oldest: sql<number | null>`min(${t.expiresAt})`.mapWith(Number),
        oldestOfClient: sql<number | null>`min(${ofClient})`.mapWith(Number),
      })
      .from(t);
    if (pending!.ofClient >= limits.perClient) return { refused: 'client', oldestExpiresAt: pending!.oldestOfClient ?? nowMs };
    if (pending!.total >= limits.total) return { refused: 'total', oldestExpiresAt: pending!.oldest ?? nowMs };
    await q.insert(t).values(login).returning({ id: t.id });
    return null;
  });
}

/**
 * Removes and returns the pending sign-in `id` when `state` is its state, expired or not; undefined
 * when there is none, it was taken, or the state differs (a forged callback leaves it in place).
 */
export function takePendingLogin(db: DatabasePort, id: string, state: string): Promise<PendingLogin | undefined> {
  const { oidcPendingLogins: t } = db.t;
  return db.run(
    async (q) =>
      (
        await q
          .delete(t)
          .where(and(eq(t.id, id), eq(t.state, state)))
          .returning()
      )[0],
  );
}
