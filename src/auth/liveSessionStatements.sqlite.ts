// The live-session lookup on SQLite (liveSessionStatements.ts): a better-sqlite3 statement prepared
// once per connection, in raw mode, run through the port's mutex, behind the cache of live sessions
// (liveSessionCache.ts: one process serves the file, so it sees every revocation it must forget).
import type { SqlitePort } from '../db/databasePort.js';
import { createLiveSessionCache } from './liveSessionCache.js';
import { liveSessionOwnerSql } from './liveSessionLookup.js';
import type { LiveSessionStatements } from './liveSessionStatements.js';
import type { Role } from './roles.js';

export function sqliteLiveSessions(engine: SqlitePort): LiveSessionStatements {
  const client = engine.db.$client;
  // Prepared on first use: the port is made before its migrations have created auth_session.
  let lookup: ReturnType<typeof prepareLookup> | undefined;
  const prepareLookup = () => client.prepare<[string, number], [number, Role, number]>(liveSessionOwnerSql('?', '?')).raw(true);
  const dataVersion = client.prepare<[], number>('PRAGMA data_version').pluck(true);
  const cache = createLiveSessionCache({ dataVersion: () => dataVersion.get()! });
  return {
    owner(sessionId, nowMs) {
      const remembered = cache.find(sessionId, nowMs);
      if (remembered !== undefined) return Promise.resolve(remembered);
      return engine.run(() => {
        const row = (lookup ??= prepareLookup()).get(sessionId, nowMs);
        if (row === undefined) return Promise.resolve(undefined);
        const owner = { memberId: row[0], role: row[1] };
        // Inside the connection's turn: a revocation queued behind this read forgets it afterwards.
        cache.remember(sessionId, owner, row[2], nowMs);
        return Promise.resolve(owner);
      });
    },
    forget: (sessionId) => cache.forget(sessionId),
  };
}
