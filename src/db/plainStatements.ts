// Plain SQL that both engines accept (UPDATE … RETURNING, sub-selects, epoch-millisecond instants
// passed in by the caller) lets a module write its statements once. This runs such a statement on the
// handle a port gave and returns its rows; the only dialect differences left are the fragments
// `onPostgres` adds (row locks, advisory locks), which SQLite does not need: its one connection runs
// one transaction at a time. The generation job (the plan row, src/generation/) is written this way.
import type BetterSqlite3 from 'better-sqlite3';
import { sql, type SQL } from 'drizzle-orm';
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import type { Db } from './database.js';
import type { DatabasePort, PgQueries } from './databasePort.js';

/** Runs statements on the handle a port gave (aliases name the columns: `id AS "tripPlanId"`). */
export interface Statements {
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

function onSqlite(q: Db): Statements {
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

function onPg(q: PgQueries): Statements {
  return {
    rows: async <T>(statement: SQL) => (await q.execute(statement)).rows as T[],
    run: async (statement) => void (await q.execute(statement)),
  };
}

/**
 * The statements on a handle the port's own tx()/run() gave (typed as PostgreSQL's by the port): on
 * SQLite that handle is the SQLite connection itself (databasePort() passes the engine's through).
 */
export function statementsOn(port: DatabasePort, q: PgQueries): Statements {
  return port.engine.dialect === 'sqlite' ? onSqlite(q as unknown as Db) : onPg(q);
}

/** fn's statements commit together, or roll back when it throws. */
export function inTransaction<T>(port: DatabasePort, fn: (s: Statements) => Promise<T>): Promise<T> {
  const { engine } = port;
  return engine.dialect === 'sqlite' ? engine.tx((q) => fn(onSqlite(q))) : engine.tx((q) => fn(onPg(q)));
}

/** Statements on their own (each its own autocommit); on SQLite never inside another caller's transaction. */
export function outsideTransaction<T>(port: DatabasePort, fn: (s: Statements) => Promise<T>): Promise<T> {
  const { engine } = port;
  return engine.dialect === 'sqlite' ? engine.run((q) => fn(onSqlite(q))) : engine.run((q) => fn(onPg(q)));
}

/** The fragment on PostgreSQL, nothing on SQLite. */
export function onPostgres(port: DatabasePort, fragment: SQL): SQL {
  return port.dialect === 'postgres' ? fragment : sql``;
}

/** `a, b, c` as parameters, for `IN (…)`. */
export function list(values: readonly (number | string)[]): SQL {
  return sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );
}
