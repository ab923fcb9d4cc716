// Sessions: one per sign-in. Logout or refresh-token reuse revokes it, which ends its access tokens
// too; reissue moves `refreshJti` to the newly issued refresh token, and keeps the one it replaced
// and when (`previousRefreshJti`, `rotatedAt`) for the reuse grace of authService.ts.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DatabasePort } from '../db/databasePort.js';
import { prepared } from '../db/preparedStatements.js';
import type { authSessions } from '../db/schema.pg.js';
import { findOrCreateMemberIn, type MemberIdentity, type MemberRow } from '../members/memberRepository.js';

export type SessionRow = typeof authSessions.$inferSelect;

/** The member (created on first use) and a new session of theirs, in one transaction: a failed write leaves neither. */
export function createMemberSession(
  db: DatabasePort,
  member: MemberIdentity,
  session: Omit<typeof authSessions.$inferInsert, 'memberId'>,
  nowMs: number,
): Promise<MemberRow> {
  return db.tx(async (q) => {
    const row = await findOrCreateMemberIn(db, q, member, nowMs);
    await q.insert(db.t.authSessions).values({ ...session, memberId: row.id });
    return row;
  });
}

/** The live session, or undefined when revoked, expired or unknown. */
export function findLiveSession(db: DatabasePort, sessionId: string, nowMs: number): Promise<SessionRow | undefined> {
  const { authSessions } = db.t;
  return db.run(async (q) => {
    const query = prepared(q, 'findLiveSession', () =>
      q
        .select()
        .from(authSessions)
        .where(and(eq(authSessions.id, sql.placeholder('sessionId')), isNull(authSessions.revokedAt)))
        .prepare('findLiveSession'),
    );
    const [row] = await query.execute({ sessionId });
    if (!row || row.expiresAt <= nowMs) return undefined;
    return row;
  });
}

export function findSession(db: DatabasePort, sessionId: string): Promise<SessionRow | undefined> {
  const { authSessions } = db.t;
  return db.run(async (q) => (await q.select().from(authSessions).where(eq(authSessions.id, sessionId)))[0]);
}

/** Moves the session to a new refresh token at `nowMs`, only if `expectedJti` is still the current one. */
export function rotateRefreshToken(
  db: DatabasePort,
  sessionId: string,
  expectedJti: string,
  nextJti: string,
  nowMs: number,
  expiresAt: number,
): Promise<boolean> {
  const { authSessions } = db.t;
  return db.run(async (q) => {
    const moved = await q
      .update(authSessions)
      .set({ refreshJti: nextJti, previousRefreshJti: expectedJti, rotatedAt: nowMs, expiresAt })
      .where(and(eq(authSessions.id, sessionId), eq(authSessions.refreshJti, expectedJti), isNull(authSessions.revokedAt)))
      .returning({ id: authSessions.id });
    return moved.length === 1;
  });
}

/** Ends the session; the live-session lookup forgets it in the same turn of the connection (liveSessionCache.ts). */
export function revokeSession(db: DatabasePort, sessionId: string, reason: string, nowMs: number): Promise<void> {
  const { authSessions } = db.t;
  return db.run(async (q) => {
    try {
      await q
        .update(authSessions)
        .set({ revokedAt: nowMs, revokedReason: reason })
        .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)));
    } finally {
      db.statements.liveSessions.forget(sessionId);
    }
  });
}
