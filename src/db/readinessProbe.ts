// What /readyz asks the database: on SQLite, can it take a write right now (writeProbe.ts); on
// PostgreSQL, does it answer a query (the port exists only once its migrations were applied): one
// round trip on a pooled connection, given up after `timeoutMs` (the connection is then closed, so
// a probe that timed out holds nothing on the server).
import type { QueryConfig } from 'pg';
import type { PostgresPort, SqlitePort } from './databasePort.js';
import { probeWrite } from './writeProbe.js';

/** The readiness question of one engine, and what its failure says of the database. */
export interface DatabaseReadiness {
  /** throws the engine's error when the database cannot serve requests now */
  probe(options: { timeoutMs: number }): Promise<void>;
  /** a failed probe in /readyz's words: "The database {failing} (reason)." */
  failing: string;
}

export function sqliteReadiness(engine: SqlitePort): DatabaseReadiness {
  return {
    // Through the port's mutex: the probe's own transaction must not start inside another caller's.
    probe: () => engine.run((db) => Promise.resolve(probeWrite(db.$client))),
    failing: 'does not take writes',
  };
}

export function postgresReadiness(engine: PostgresPort): DatabaseReadiness {
  return {
    async probe({ timeoutMs }) {
      // node-postgres' read timeout (a query option its types leave out): the query fails with "Query
      // read timeout" (a storage failure), and the pool closes the connection given back with it.
      const probe: QueryConfig & { query_timeout: number } = { text: 'SELECT 1', query_timeout: timeoutMs };
      await engine.db.$client.query(probe);
    },
    failing: 'does not answer',
  };
}
