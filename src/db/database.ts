// Opens the SQLite database, applies pending migrations and returns the drizzle handle. WAL with
// synchronous=NORMAL keeps every committed transaction across a process crash.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from './schema.js';

/** drizzle over better-sqlite3; `$client` is the raw connection, for the few hand-written hot queries. */
export type Db = BetterSQLite3Database<typeof schema> & { $client: BetterSqlite3.Database };

export interface Database {
  db: Db;
  sqlite: BetterSqlite3.Database;
  close(): void;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations', 'sqlite');

/**
 * A write with RETURNING read by `get()` outside a transaction loses its commit error: better-sqlite3
 * steps once for the row and then resets the statement, and the autocommit that fails there (disk
 * full, read-only file) is not reported, so the caller gets the row of a write that was never stored.
 * Reading such statements to completion makes the failed commit throw like any other write.
 */
function completeWritesWithReturning(sqlite: BetterSqlite3.Database): void {
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    const statement = prepare(source);
    if (statement.reader && !statement.readonly) {
      const all = statement.all.bind(statement);
      statement.get = (...params: unknown[]) => all(...params)[0];
    }
    return statement;
  }) as typeof sqlite.prepare;
}

export function openDatabase(file: string): Database {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new BetterSqlite3(file);
  completeWritesWithReturning(sqlite);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder });
  return {
    db,
    sqlite,
    close: () => {
      if (sqlite.open) sqlite.close();
    },
  };
}
