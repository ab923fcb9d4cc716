// Which engine a test runs on. The `postgres` project of vitest.config.ts sets TEST_ENGINE=postgres:
// its test apps and repository tests then get a fresh PostgreSQL database each (dropped when they
// close), where the `sqlite` project gives them SQLite (in memory unless the test names a file).
import type { DatabasePort } from '../../src/db/databasePort.js';
import { openDatabasePort, openSqliteDatabasePort } from '../../src/composition/openDatabase.js';
import { freshPostgresDatabase } from './postgres.js';

export const testEngine: 'sqlite' | 'postgres' = process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

export interface TestDatabase {
  /** DATABASE_URL for the test's configuration */
  url: string;
  /** removes what the test left (the PostgreSQL database); after the app closed */
  drop(): Promise<void>;
}

/** A database of the test engine for one test app: a copy of the run's migrated template on PostgreSQL. */
export async function testAppDatabase(): Promise<TestDatabase> {
  if (testEngine === 'sqlite') return { url: ':memory:', drop: () => Promise.resolve() };
  const fresh = await freshPostgresDatabase({ migrated: true });
  return { url: fresh.url, drop: () => fresh.drop() };
}

/** An empty database of the test engine, migrated, as a port; `close()` also drops it. */
export async function openTestDatabasePort(): Promise<DatabasePort> {
  if (testEngine === 'sqlite') return openSqliteDatabasePort(':memory:');
  const fresh = await freshPostgresDatabase();
  const port = await openDatabasePort({ engine: 'postgres', url: fresh.url, poolMax: 4 });
  return { ...port, close: () => port.close().then(() => fresh.drop()) };
}
