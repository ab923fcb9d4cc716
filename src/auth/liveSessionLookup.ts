// The per-request half of authentication: is the token's session still live, and whose is it? Run
// on every authenticated request, so it is a hand-written statement per engine returning a raw row
// of the two columns needed (as the trip list does, trips/tripPlanList.ts) rather than drizzle's
// full row: drizzle's mapping of the 9 columns cost more than the lookup itself. It reads the
// database every time, so a logout or revocation takes effect on the very next request.
import type { DatabasePort } from '../db/databasePort.js';
import { prepared } from '../db/preparedStatements.js';
import type { Role } from './roles.js';

export interface LiveSessionOwner {
  memberId: number;
  role: Role;
}

const sql = (id: string, now: string) => `SELECT member_id, role FROM auth_session WHERE id = ${id} AND revoked_at IS NULL AND expires_at > ${now}`;
const key = 'liveSessionOwner';

/** The member and role of the session, or undefined when it is revoked, expired or unknown. */
export function findLiveSessionOwner(db: DatabasePort, sessionId: string, nowMs: number): Promise<LiveSessionOwner | undefined> {
  const { engine } = db;
  if (engine.dialect === 'sqlite') {
    return engine.run((q) => {
      const statement = prepared(q, key, () => q.$client.prepare<[string, number], [number, Role]>(sql('?', '?')).raw(true));
      const row = statement.get(sessionId, nowMs);
      return Promise.resolve(row && { memberId: row[0], role: row[1] });
    });
  }
  const text = sql('$1', '$2');
  return engine.db.$client
    .query<[number, Role]>({ name: key, text, values: [sessionId, nowMs], rowMode: 'array' })
    .then(({ rows: [row] }) => row && { memberId: row[0], role: row[1] });
}
