// The one mapping from storage errors to what clients are told. On SQLite: a disk that is full or
// read-only, an I/O error, a database locked elsewhere or a file that cannot be opened. On
// PostgreSQL: a server that cannot be reached, a connection that was cut, a server shutting down or
// out of connections or disk. None of these is a bug of the request but storage that cannot serve
// it now: HTTP answers 503 COMMON503 with Retry-After (openapi.yaml, StorageUnavailable), STOMP an
// ERROR WS503 (asyncapi.yaml), generation AI002. Everything else stays an unexpected error.
import BetterSqlite3 from 'better-sqlite3';
import { AppError } from '../kernel/appError.js';

/** Seconds a client is asked to wait after a refused write (Retry-After). */
export const STORAGE_RETRY_AFTER_SECONDS = 5;

// Primary result codes; extended codes (SQLITE_IOERR_WRITE, SQLITE_READONLY_DBMOVED, SQLITE_BUSY_SNAPSHOT,
// SQLITE_CANTOPEN_ISDIR, ...) start with one of them followed by an underscore.
const SQLITE_CODES = ['SQLITE_FULL', 'SQLITE_READONLY', 'SQLITE_IOERR', 'SQLITE_BUSY', 'SQLITE_CANTOPEN', 'SQLITE_LOCKED', 'SQLITE_PROTOCOL'];

// SQLSTATE classes and codes (PostgreSQL, Appendix A): 08 connection exception, 53 insufficient
// resources (disk full, out of memory, too many connections), 57P01-57P03 the server shutting down,
// crashed or still starting, 25006 a read-only server (a standby after a failover).
const PG_CLASSES = ['08', '53'];
const PG_CODES = ['57P01', '57P02', '57P03', '25006'];
// What node:net reports for a server that cannot be reached or a connection that broke.
const SOCKET_CODES = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'];
// node-postgres and its pool say these without a code.
const PG_CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Query read timeout$/,
];

/** The error and every `cause` under it (drizzle wraps the driver's error in DrizzleQueryError). */
function* causes(error: unknown): Generator<unknown> {
  for (let at = error, depth = 0; at !== undefined && at !== null && depth < 8; at = (at as { cause?: unknown }).cause, depth++) yield at;
}

function codeOf(error: unknown): string | null {
  if (error instanceof BetterSqlite3.SqliteError) {
    const code = error.code;
    return SQLITE_CODES.some((prefix) => code === prefix || code.startsWith(`${prefix}_`)) ? code : null;
  }
  if (!(error instanceof Error)) return null;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (/^[0-9A-Z]{5}$/.test(code) && (PG_CLASSES.includes(code.slice(0, 2)) || PG_CODES.includes(code))) return code;
    if (SOCKET_CODES.includes(code)) return code;
  }
  if (PG_CONNECTION_MESSAGES.some((pattern) => pattern.test(error.message))) return 'PG_CONNECTION';
  if (error instanceof AggregateError) return error.errors.map(codeOf).find((c) => c !== null) ?? null;
  return null;
}

/** The storage's code (SQLite result code, SQLSTATE, socket error) when `error` is a storage failure, else null. */
export function storageFailureCode(error: unknown): string | null {
  for (const cause of causes(error)) {
    const code = codeOf(cause);
    if (code) return code;
  }
  return null;
}

// Of those, the ones a retry a few seconds later may get past: a server that cannot be reached, a
// connection that broke, a server restarting or out of connections, a SQLite database locked by
// another connection. A full disk, a read-only or unreadable file, a read-only server need someone
// to act: retrying them only delays the answer.
const TRANSIENT_PG_CODES = ['57P01', '57P02', '57P03', '53300'];
const TRANSIENT_SQLITE_CODES = ['SQLITE_BUSY', 'SQLITE_LOCKED'];

/** Whether `error` is a storage failure that may be gone when the same step is tried again shortly. */
export function transientStorageFailure(error: unknown): boolean {
  const code = storageFailureCode(error);
  if (code === null) return false;
  if (code.startsWith('SQLITE_')) return TRANSIENT_SQLITE_CODES.some((prefix) => code === prefix || code.startsWith(`${prefix}_`));
  return code === 'PG_CONNECTION' || SOCKET_CODES.includes(code) || code.startsWith('08') || TRANSIENT_PG_CODES.includes(code);
}

/** The driver's own message of a storage failure: never drizzle's wrapper, whose text holds the query's parameters. */
export function storageUnavailableReason(error: unknown): string {
  for (const cause of causes(error)) if (codeOf(cause)) return (cause as Error).message || String((cause as Error & { code?: string }).code);
  return 'unknown';
}

/** A storage-unavailable AppError for a storage failure (already mapped ones pass through), else null. */
export function storageUnavailable(error: unknown): AppError | null {
  if (error instanceof AppError) return error.code === 'COMMON503' ? error : null;
  const code = storageFailureCode(error);
  if (!code) return null;
  const reason = storageUnavailableReason(error);
  const message = code.startsWith('SQLITE_')
    ? `The storage cannot take writes right now (${reason}); nothing was saved. Retry later.`
    : `The database cannot be reached right now (${reason}); nothing was saved. Retry later.`;
  return new AppError('COMMON503', message, { headers: { 'Retry-After': String(STORAGE_RETRY_AFTER_SECONDS) } });
}
