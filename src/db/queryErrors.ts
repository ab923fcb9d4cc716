// Counting the statements and transactions the database refused (trip_db_query_errors_total): the
// port every repository goes through, with its failures reported. A query error is one of the
// database or its driver (drizzle's wrapper of a failed statement, a PostgreSQL or SQLite error, a
// storage failure); an error a callback throws to roll back (an AppError, a lost lease) is not one.
import BetterSqlite3 from 'better-sqlite3';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import pg from 'pg';
import type { DatabasePort } from './databasePort.js';
import { storageFailureCode } from './storageFailure.js';

/** Whether `error` (or a cause under it) came from the database or its driver. */
export function isQueryError(error: unknown): boolean {
  for (let at = error, depth = 0; at instanceof Error && depth < 8; at = at.cause, depth++) {
    if (at instanceof DrizzleQueryError || at instanceof pg.DatabaseError || at instanceof BetterSqlite3.SqliteError) return true;
  }
  return storageFailureCode(error) !== null;
}

/** `port`, telling `onQueryError` of each query error its `tx` and `run` end with. */
export function reportingQueryErrors(port: DatabasePort, onQueryError: () => void): DatabasePort {
  const reported = (error: unknown): never => {
    if (isQueryError(error)) onQueryError();
    throw error;
  };
  return {
    ...port,
    tx: (fn) => port.tx(fn).catch(reported),
    run: (fn) => port.run(fn).catch(reported),
  };
}
