// The per-request half of authentication: is the token's session still live, and whose is it? Run
// on every authenticated request, so it is a hand-written statement per engine
// (liveSessionStatements.sqlite.ts, .postgres.ts) returning a raw row of the two columns needed (as
// the trip list does, trips/tripPlanList.ts) rather than drizzle's full row: drizzle's mapping of
// the 9 columns cost more than the lookup itself. On PostgreSQL it reads the database every time;
// on SQLite, which one process serves, it remembers live sessions (liveSessionCache.ts) and the
// revoking statement forgets them. Either way a logout or revocation takes effect on the very next
// request.
import type { DatabasePort } from '../db/databasePort.js';
import type { Role } from './roles.js';

export interface LiveSessionOwner {
  memberId: number;
  role: Role;
}

/** The lookup's SQL, its two parameters (the session id, the instant) written by the engine's statement. */
export const liveSessionOwnerSql = (id: string, now: string) =>
  `SELECT member_id, role, expires_at FROM auth_session WHERE id = ${id} AND revoked_at IS NULL AND expires_at > ${now}`;

/** The member and role of the session, or undefined when it is revoked, expired or unknown. */
export function findLiveSessionOwner(db: DatabasePort, sessionId: string, nowMs: number): Promise<LiveSessionOwner | undefined> {
  return db.statements.liveSessions.owner(sessionId, nowMs);
}
