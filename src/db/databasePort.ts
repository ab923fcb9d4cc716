// One transaction helper, two engines (../shared/design/SCALEOUT.md §5): repositories call
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
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { NodePgQueryResultHKT } from 'drizzle-orm/node-postgres';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import { createAsyncMutex } from './asyncMutex.js';
import type { Database, Db } from './database.js';
import type { PgDb, PostgresDatabase } from './postgresDatabase.js';
import type * as pgSchema from './schema.pg.js';

/** What a callback queries with on PostgreSQL: the pool, or the transaction's connection. */
export type PgQueries = PgDatabase<NodePgQueryResultHKT, typeof pgSchema, ExtractTablesWithRelations<typeof pgSchema>>;

interface Port<Dialect extends string, Handle, Queries> {
  dialect: Dialect;
  /** the drizzle handle; statements on it bypass `tx`/`run` (and on SQLite, their mutex) */
  db: Handle;
  /** fn's statements commit together when it resolves and roll back when it throws */
  tx<T>(fn: (q: Queries) => Promise<T>): Promise<T>;
  /** statements without a transaction; on SQLite never inside another caller's open transaction */
  run<T>(fn: (q: Queries) => Promise<T>): Promise<T>;
  /** waits for the work in progress, then closes the connection(s) */
  close(): Promise<void>;
}

export type SqlitePort = Port<'sqlite', Db, Db>;
export type PostgresPort = Port<'postgres', PgDb, PgQueries>;
export type DatabasePort = SqlitePort | PostgresPort;

/** Which port's callback the current async context runs in, while it runs. */
const inCallback = new AsyncLocalStorage<{ port: object; open: boolean }>();

async function asCallbackOf<T>(port: object, fn: () => Promise<T>): Promise<T> {
  const scope = { port, open: true };
  try {
    return await inCallback.run(scope, fn);
  } finally {
    // Work the callback started and left running is no longer inside it.
    scope.open = false;
  }
}

function refuseReentry(port: object, method: string): void {
  const scope = inCallback.getStore();
  if (scope?.open && scope.port === port) {
    throw new Error(`${method}() called inside a tx()/run() callback of the same database: use the handle the callback was given`);
  }
}

export function sqlitePort(database: Database): SqlitePort {
  const { db, sqlite } = database;
  const mutex = createAsyncMutex();
  const port: SqlitePort = {
    dialect: 'sqlite',
    db,
    tx: async (fn) => {
      refuseReentry(port, 'tx');
      return mutex.exclusive(() =>
        asCallbackOf(port, async () => {
          sqlite.exec('BEGIN IMMEDIATE');
          try {
            const result = await fn(db);
            sqlite.exec('COMMIT');
            return result;
          } catch (error) {
            // A failed COMMIT (disk full, I/O error) can leave the transaction open: end it.
            if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
            throw error;
          }
        }),
      );
    },
    run: async (fn) => {
      refuseReentry(port, 'run');
      return mutex.exclusive(() => asCallbackOf(port, () => fn(db)));
    },
    close: () => mutex.exclusive(async () => database.close()),
  };
  return port;
}

export function postgresPort(database: PostgresDatabase): PostgresPort {
  const { db } = database;
  const port: PostgresPort = {
    dialect: 'postgres',
    db,
    tx: async (fn) => {
      refuseReentry(port, 'tx');
      return asCallbackOf(port, () => db.transaction((q) => fn(q)));
    },
    run: async (fn) => {
      refuseReentry(port, 'run');
      return asCallbackOf(port, () => fn(db));
    },
    close: () => database.close(),
  };
  return port;
}
