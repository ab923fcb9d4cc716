// Sessions: one per sign-in. Logout or refresh-token reuse revokes it, which ends its access tokens
// too; reissue moves `refreshJti` to the newly issued refresh token.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { prepared } from '../db/preparedStatements.js';
import type { Db } from '../db/database.js';
import { authSessions } from '../db/schema.js';

export type SessionRow = typeof authSessions.$inferSelect;

export function createSession(db: Db, row: typeof authSessions.$inferInsert): void {
  db.insert(authSessions).values(row).run();
}

/** The live session, or undefined when revoked, expired or unknown. */
export function findLiveSession(db: Db, sessionId: string, nowMs: number): SessionRow | undefined {
  const query = prepared(db, 'findLiveSession', () =>
    db
      .select()
      .from(authSessions)
      .where(and(eq(authSessions.id, sql.placeholder('sessionId')), isNull(authSessions.revokedAt)))
      .prepare(),
  );
  const row = query.get({ sessionId });
  if (!row || row.expiresAt <= nowMs) return undefined;
  return row;
}

export function findSession(db: Db, sessionId: string): SessionRow | undefined {
  return db.select().from(authSessions).where(eq(authSessions.id, sessionId)).get();
}

/** Moves the session to a new refresh token, only if `expectedJti` is still the current one. */
export function rotateRefreshToken(db: Db, sessionId: string, expectedJti: string, nextJti: string, expiresAt: number): boolean {
  const result = db
    .update(authSessions)
    .set({ refreshJti: nextJti, expiresAt })
    .where(and(eq(authSessions.id, sessionId), eq(authSessions.refreshJti, expectedJti), isNull(authSessions.revokedAt)))
    .run();
  return result.changes === 1;
}

export function revokeSession(db: Db, sessionId: string, reason: string, nowMs: number): void {
  db.update(authSessions)
    .set({ revokedAt: nowMs, revokedReason: reason })
    .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)))
    .run();
}
