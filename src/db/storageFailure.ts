// The one mapping from SQLite's storage errors to what clients are told: a disk that is full or
// read-only, an I/O error, a database locked elsewhere or a file that cannot be opened is not a bug
// of the request but storage that cannot take the write now. HTTP answers 503 COMMON503 with
// Retry-After (openapi.yaml, StorageUnavailable), STOMP an ERROR WS503 (asyncapi.yaml), generation
// AI002. Everything else stays an unexpected error.
import BetterSqlite3 from 'better-sqlite3';
import { AppError } from '../http/appError.js';

/** Seconds a client is asked to wait after a refused write (Retry-After). */
export const STORAGE_RETRY_AFTER_SECONDS = 5;

// Primary result codes; extended codes (SQLITE_IOERR_WRITE, SQLITE_READONLY_DBMOVED, SQLITE_BUSY_SNAPSHOT,
// SQLITE_CANTOPEN_ISDIR, ...) start with one of them followed by an underscore.
const STORAGE_CODES = ['SQLITE_FULL', 'SQLITE_READONLY', 'SQLITE_IOERR', 'SQLITE_BUSY', 'SQLITE_CANTOPEN', 'SQLITE_LOCKED', 'SQLITE_PROTOCOL'];

/** The SQLite result code when `error` is a storage failure, else null. */
export function storageFailureCode(error: unknown): string | null {
  if (!(error instanceof BetterSqlite3.SqliteError)) return null;
  const code = error.code;
  return STORAGE_CODES.some((prefix) => code === prefix || code.startsWith(`${prefix}_`)) ? code : null;
}

/** A storage-unavailable AppError for a storage failure (already mapped ones pass through), else null. */
export function storageUnavailable(error: unknown): AppError | null {
  if (error instanceof AppError) return error.code === 'COMMON503' ? error : null;
  const code = storageFailureCode(error);
  if (!code) return null;
  const reason = (error as Error).message;
  return new AppError('COMMON503', `The storage cannot take writes right now (${reason}); nothing was saved. Retry later.`, {
    headers: { 'Retry-After': String(STORAGE_RETRY_AFTER_SECONDS) },
  });
}
