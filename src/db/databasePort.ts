// One transaction helper, two engines (docs/design/scale-out.md, "One code path on two engines"): repositories call
// `tx(fn)` for work that must commit or roll back as one, and `run(fn)` for statements that need no
// transaction, and get the same semantics on SQLite and PostgreSQL.
// - PostgreSQL: drizzle's async transaction on a connection of the pool; `run` uses the pool.
// - SQLite: better-sqlite3 refuses async transaction callbacks ("Transaction function cannot return
//   a promise") and has one connection, so a statement issued while a transaction awaits would
//   land inside it (and vanish with its rollback). Every `tx` and `run` therefore takes one async
//   mutex: a transaction is BEGIN IMMEDIATE … COMMIT / ROLLBACK with nothing else on the
//   connection in between, and `run` waits for it.
// Calling `tx` or `run` again from inside a callback would wait for itself on SQLite (and leave
// the transaction on PostgreSQL), so it throws instead: use the handle the callback was given.
// That check is a development aid, off in production (main.ts): it needs AsyncLocalStorage, which
// on Node 20 turns on a hook for every promise of the process and cost 10-20 % of the CPU time of a
// read request (measured with the service's GET /api/v1/trips/{id} on SQLite); a reentrant call is
// a programming error that the tests, which run with the check on both engines, catch.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { NodePgQueryResultHKT } from 'drizzle-orm/node-postgres';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import { createAsyncMutex } from './asyncMutex.js';
import type { Database, Db } from './database.js';
import { postgresPlainSql, sqlitePlainSql, type PlainSql } from './plainSql.js';
import type { PgDb, PostgresDatabase } from './postgresDatabase.js';
import { postgresReadiness, sqliteReadiness, type DatabaseReadiness } from './readinessProbe.js';
import type * as pgSchema from './schema.pg.js';
import * as sqliteSchema from './schema.js';

/** What a callback queries with on PostgreSQL: the pool, or the transaction's connection. */
export type PgQueries = PgDatabase<NodePgQueryResultHKT, typeof pgSchema, ExtractTablesWithRelations<typeof pgSchema>>;

interface Port<Dialect extends string, Tables, Handle, Queries> {
  dialect: Dialect;
  /** the tables of this dialect's schema (identical row types in both) */
  t: Tables;
  /** the drizzle handle; statements on it bypass `tx`/`run` (and on SQLite, their mutex) */
  db: Handle;
  /** fn's statements commit together when it resolves and roll back when it throws */
  tx<T>(fn: (q: Queries) => Promise<T>): Promise<T>;
  /** statements without a transaction; on SQLite never inside another caller's open transaction */
  run<T>(fn: (q: Queries) => Promise<T>): Promise<T>;
  /** waits for the work in progress, then closes the connection(s) */
  close(): Promise<void>;
}

export type SqlitePort = Port<'sqlite', typeof sqliteSchema, Db, Db>;
export type PostgresPort = Port<'postgres', typeof pgSchema, PgDb, PgQueries>;
/** One engine with its own types, for the few statements written per dialect. */
export type EnginePort = SqlitePort | PostgresPort;

/**
 * The statements a repository writes per engine, one set per repository that has them (a port
 * `<thing>.ts` with its implementations `<thing>.sqlite.ts` and `<thing>.postgres.ts` next to it).
 * Each such port adds its set here itself (`declare module '../db/databasePort.js'`), since this
 * folder may not import theirs; composition/engineStatements.ts builds every set for the opened
 * engine, and the compiler holds it to the whole list.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging, from the repositories' folders
export interface EngineStatements {}

/** The connections this process holds to the database, for the metrics. */
export interface ConnectionPoolState {
  idle: number;
  used: number;
  pending: number;
}

/**
 * What repositories work with: one code path for both engines. Its queries and tables are typed as
 * PostgreSQL's (pg-core), whichever engine runs them; what differs per engine is in `statements`,
 * built for this engine by the composition root, and in the few properties below. `engine` is the
 * engine itself: src/db/ and the composition root choose by it; elsewhere it is only the
 * database's identity (the same under every wrapper of the port, catalogue/placeCache.ts).
 */
export interface DatabasePort {
  dialect: EnginePort['dialect'];
  t: typeof pgSchema;
  tx<T>(fn: (q: PgQueries) => Promise<T>): Promise<T>;
  run<T>(fn: (q: PgQueries) => Promise<T>): Promise<T>;
  /** plain SQL (plainSql.ts) on a handle this port's tx()/run() gave */
  plainSql(q: PgQueries): PlainSql;
  /** every repository's statements written per engine, this engine's */
  statements: EngineStatements;
  /** what /readyz asks this database (readinessProbe.ts) */
  readiness: DatabaseReadiness;
  /** the connections of this process to the database now */
  connectionPool(): ConnectionPoolState;
  /**
   * whether other instances may use this database too (PostgreSQL); a SQLite file is this process's
   * alone, so nobody else could run the generation jobs it leaves waiting when it stops
   */
  sharedByInstances: boolean;
  close(): Promise<void>;
  engine: EnginePort;
}

/**
 * The one place where SQLite's handle is typed as PostgreSQL's. Sound for what repositories do with
 * it, because:
 * - the tables are the engine's own (`t` of the SQLite port is schema.ts), so every value is
 *   encoded and decoded by its own dialect's columns (booleans as 0/1, JSON as text), and the row
 *   types of both schemas are identical (test/types/schemaParity.ts does not compile otherwise);
 * - the builder calls repositories make — select/from/innerJoin/where/orderBy/limit,
 *   insert/values/returning, update/set, delete, prepare + execute — exist in sqlite-core with the
 *   same meaning, and awaited (drizzle's queries are thenable in both) resolve to the same arrays of
 *   rows; the operators (eq, and, inArray, sql…) build dialect-neutral SQL;
 * - the repository tests run on both engines, so a call that only one dialect has fails a test.
 * What it does not cover, so repositories must not do it: read the awaited result of a write
 * without `.returning()` (node-postgres' QueryResult vs better-sqlite3's RunResult: count changed
 * rows with `.returning({ id })` instead), use pg-only builder methods (`.for('update')`, `$count`
 * on SQLite's sync driver…) or write `sql` text only one dialect parses, other than in a statement
 * set of `statements` (EngineStatements); plain `sql` runs through `plainSql(q)`.
 * `.prepare(name)`: SQLite ignores the name; PostgreSQL uses it as the named prepared statement.
 */
export function databasePort(engine: EnginePort, statements: EngineStatements): DatabasePort {
  const close = () => engine.close();
  if (engine.dialect === 'postgres') {
    const pool = engine.db.$client;
    return {
      dialect: engine.dialect,
      t: engine.t,
      tx: (fn) => engine.tx(fn),
      run: (fn) => engine.run(fn),
      plainSql: postgresPlainSql,
      statements,
      readiness: postgresReadiness(engine),
      connectionPool: () => ({ idle: pool.idleCount, used: pool.totalCount - pool.idleCount, pending: pool.waitingCount }),
      sharedByInstances: true,
      close,
      engine,
    };
  }
  const { tx, run } = engine as unknown as Pick<DatabasePort, 'tx' | 'run'>;
  return {
    dialect: engine.dialect,
    t: engine.t as unknown as typeof pgSchema,
    tx,
    run,
    plainSql: (q) => sqlitePlainSql(q as unknown as Db),
    statements,
    readiness: sqliteReadiness(engine),
    // One connection, always in use by this process.
    connectionPool: () => ({ idle: 0, used: 1, pending: 0 }),
    sharedByInstances: false,
    close,
    engine,
  };
}

/** Which port's callback the current async context runs in, while the callback runs. */
const inCallback = new AsyncLocalStorage<{ port: object; open: boolean }>();

export interface PortOptions {
  /** throw on tx()/run() inside a callback of the same port (default true; main.ts turns it off in production) */
  guardReentry?: boolean;
}

function asCallbackOf<Q, T>(port: object, fn: (q: Q) => Promise<T>, guard: boolean): (q: Q) => Promise<T> {
  if (!guard) return fn;
  return async (q) => {
    const scope = { port, open: true };
    try {
      return await inCallback.run(scope, () => fn(q));
    } finally {
      // Work the callback started and left running is no longer inside it (even before COMMIT).
      scope.open = false;
    }
  };
}

function refuseReentry(port: object, method: string, guard: boolean): void {
  if (!guard) return;
  const scope = inCallback.getStore();
  if (scope?.open && scope.port === port) {
    throw new Error(`${method}() called inside a tx()/run() callback of the same database: use the handle the callback was given`);
  }
}

export function sqlitePort(database: Database, options: PortOptions = {}): SqlitePort {
  const guard = options.guardReentry ?? true;
  const { db, sqlite } = database;
  const mutex = createAsyncMutex();
  const port: SqlitePort = {
    dialect: 'sqlite',
    t: sqliteSchema,
    db,
    tx: async (fn) => {
      refuseReentry(port, 'tx', guard);
      return mutex.exclusive(async () => {
        sqlite.exec('BEGIN IMMEDIATE');
        try {
          const result = await asCallbackOf(port, fn, guard)(db);
          sqlite.exec('COMMIT');
          return result;
        } catch (error) {
          // A failed COMMIT (disk full, I/O error) can leave the transaction open: end it.
          if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
          throw error;
        }
      });
    },
    run: async (fn) => {
      refuseReentry(port, 'run', guard);
      return mutex.exclusive(() => asCallbackOf(port, fn, guard)(db));
    },
    close: () => mutex.exclusive(() => Promise.resolve().then(() => database.close())),
  };
  return port;
}

export function postgresPort(database: PostgresDatabase, options: PortOptions = {}): PostgresPort {
  const guard = options.guardReentry ?? true;
  const { db } = database;
  const port: PostgresPort = {
    dialect: 'postgres',
    t: database.schema,
    db,
    tx: async (fn) => {
      refuseReentry(port, 'tx', guard);
      return database.transaction(asCallbackOf(port, fn, guard));
    },
    run: async (fn) => {
      refuseReentry(port, 'run', guard);
      return asCallbackOf(port, fn, guard)(db);
    },
    close: () => database.close(),
  };
  return port;
}
