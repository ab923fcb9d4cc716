// The live-session lookup on SQLite (liveSessionStatements.ts): a better-sqlite3 statement prepared
// once per connection, in raw mode, run through the port's mutex.
import type { SqlitePort } from '../db/databasePort.js';
import { prepared } from '../db/preparedStatements.js';
import { liveSessionOwnerSql } from './liveSessionLookup.js';
import type { LiveSessionStatements } from './liveSessionStatements.js';
import type { Role } from './roles.js';

const key = 'liveSessionOwner';

export function sqliteLiveSessions(engine: SqlitePort): LiveSessionStatements {
  return {
    owner: (sessionId, nowMs) =>
      engine.run((q) => {
        const statement = prepared(q, key, () => q.$client.prepare<[string, number], [number, Role]>(liveSessionOwnerSql('?', '?')).raw(true));
        const row = statement.get(sessionId, nowMs);
        return Promise.resolve(row && { memberId: row[0], role: row[1] });
      }),
  };
}
