// The live-session lookup on PostgreSQL (liveSessionStatements.ts): a named statement on the pool,
// the row as an array, read on every request (every instance may end a session).
import type { PostgresPort } from '../db/databasePort.js';
import { liveSessionOwnerSql } from './liveSessionLookup.js';
import type { LiveSessionStatements } from './liveSessionStatements.js';
import type { Role } from './roles.js';

const key = 'liveSessionOwner';
const text = liveSessionOwnerSql('$1', '$2');

export function postgresLiveSessions(engine: PostgresPort): LiveSessionStatements {
  return {
    owner: (sessionId, nowMs) =>
      engine.db.$client
        .query<[number, Role]>({ name: key, text, values: [sessionId, nowMs], rowMode: 'array' })
        .then(({ rows: [row] }) => row && { memberId: row[0], role: row[1] }),
    // Nothing is remembered: other instances end sessions too.
    forget: () => undefined,
  };
}
