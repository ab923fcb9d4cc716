// Counting the statements and transactions the database refused (trip_db_query_errors_total): the
// port every repository goes through, with its failures reported. A query error is one of the
// database or its driver (drizzle's wrapper of a failed statement, a PostgreSQL or SQLite error, a
// storage failure); an error a callback throws to roll back (an AppError, a lost lease) is not one.
import { createRequire } from 'node:module';
import BetterSqlite3 from 'better-sqlite3';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import type { DatabaseError } from 'pg';
import type { DatabasePort } from './databasePort.js';
import { storageFailureCode } from './storageFailure.js';

const require = createRequire(import.meta.url);
type ErrorTest = (error: Error) => boolean;

/** Whether an error is the driver's on this engine: pg is required on PostgreSQL only (SQLite never loads it). */
function driverErrorTest(dialect: DatabasePort['dialect']): ErrorTest {
  if (dialect === 'sqlite') return (error) => error instanceof BetterSqlite3.SqliteError;
  const pgError = (require('pg') as { DatabaseError: typeof DatabaseError }).DatabaseError;
  return (error) => error instanceof pgError;
}

/** Whether `error` (or a cause under it) came from the database or its driver (`isDriverError`: the engine's error class). */
export function isQueryError(error: unknown, isDriverError: ErrorTest): boolean {
  for (let at = error, depth = 0; at instanceof Error && depth < 8; at = at.cause, depth++) {
    if (at instanceof DrizzleQueryError || isDriverError(at)) return true;
  }
  return storageFailureCode(error) !== null;
}

/** `port`, telling `onQueryError` of each query error its `tx` and `run` end with. */
export function reportingQueryErrors(port: DatabasePort, onQueryError: () => void): DatabasePort {
  const isDriverError = driverErrorTest(port.dialect);
  const reported = (error: unknown): never => {
    if (isQueryError(error, isDriverError)) onQueryError();
    throw error;
  };
  return {
    ...port,
    tx: (fn) => port.tx(fn).catch(reported),
    run: (fn) => port.run(fn).catch(reported),
  };
}
