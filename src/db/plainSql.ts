// Plain SQL that both engines accept (UPDATE … RETURNING, sub-selects, epoch-millisecond instants
// passed in by the caller) lets a module write its statements once, with drizzle's `sql`, and run
// them through the port like its builder queries: `port.tx((q) => port.plainSql(q).rows(sql`…`))`.
// This is how each engine runs them (databasePort.ts gives a port its engine's); what else differs
// per engine (row locks, advisory locks) is in the statement sets of the repositories
// (EngineStatements, databasePort.ts). The generation job (the plan row, src/generation/) is
// written this way.
import type BetterSqlite3 from 'better-sqlite3';
import { sql, type SQL } from 'drizzle-orm';
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import type { Db } from './database.js';
import type { PgQueries } from './databasePort.js';

/** Runs statements on the handle a port gave (aliases name the columns: `id AS "tripPlanId"`). */
export interface PlainSql {
  /** a query, or a write with RETURNING: its rows */
  rows<T>(statement: SQL): Promise<T[]>;
  /** a write without RETURNING */
  run(statement: SQL): Promise<void>;
}

const sqliteDialect = new SQLiteSyncDialect();
/** IN lists make texts of many lengths: past this many per connection, a text is prepared each time. */
const KEPT_TEXTS = 500;
const keptStatements = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

/**
 * The statement of this text, prepared once per connection: drizzle's q.all(sql) prepares it on
 * every call, which was most of what the generation jobs' statements cost on SQLite (the
 * performance work, `npm run bench -- generations`).
 */
function sqliteStatement(client: BetterSqlite3.Database, statement: SQL): { prepared: BetterSqlite3.Statement; params: unknown[] } {
  const { sql: text, params } = sqliteDialect.sqlToQuery(statement);
  let kept = keptStatements.get(client);
  if (!kept) {
    kept = new Map();
    keptStatements.set(client, kept);
  }
  let prepared = kept.get(text);
  if (!prepared) {
    prepared = client.prepare(text);
    if (kept.size < KEPT_TEXTS) kept.set(text, prepared);
  }
  return { prepared, params };
}

/** On SQLite's connection (the handle the SQLite port's tx()/run() gives). */
export function sqlitePlainSql(q: Db): PlainSql {
  const client = q.$client;
  return {
    rows: <T>(statement: SQL) => {
      const { prepared, params } = sqliteStatement(client, statement);
      return Promise.resolve(prepared.all(...params) as T[]);
    },
    run: (statement) => {
      const { prepared, params } = sqliteStatement(client, statement);
      return Promise.resolve(void prepared.run(...params));
    },
  };
}

/** On PostgreSQL's pool or transaction (the handle the PostgreSQL port's tx()/run() gives). */
export function postgresPlainSql(q: PgQueries): PlainSql {
  return {
    rows: async <T>(statement: SQL) => (await q.execute(statement)).rows as T[],
    run: async (statement) => void (await q.execute(statement)),
  };
}

/** `a, b, c` as parameters, for `IN (…)`. */
export function list(values: readonly (number | string)[]): SQL {
  return sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );
}
