// Opens a PostgreSQL database: a node-postgres pool, drizzle over it with the pg schema, and the
// migrations of src/db/migrations/pg applied before anything else uses it. Several instances may
// open the same database at once (a rolling deploy, a scaled-up service): the migrations run under
// a session-level advisory lock, so the first instance migrates and the others wait for it and then
// find nothing left to apply.
// A connection can break at any moment (a failover, a pgbouncer restart, a NAT timeout,
// pg_terminate_backend): every connection of the pool listens for its own 'error' for its whole
// life, also while a transaction holds it (node-postgres emits the error there too, and an 'error'
// event nobody listens to ends the process), and a transaction gives its connection back to the
// pool only when it left it idle; the statements of a broken one fail as storage failures
// (storageFailure.ts: 503 COMMON503).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle, type NodePgDatabase, type NodePgTransaction } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { Logger } from '../kernel/logger.js';
import * as schema from './schema.pg.js';

export type PgDb = NodePgDatabase<typeof schema> & { $client: pg.Pool };
export type PgTransaction = NodePgTransaction<typeof schema, ExtractTablesWithRelations<typeof schema>>;

export interface PostgresDatabase {
  db: PgDb;
  pool: pg.Pool;
  /** the tables (schema.pg.ts), handed to the port from here so that a SQLite start never loads pg-core */
  schema: typeof schema;
  /**
   * fn's statements in one transaction on a connection of the pool: committed when it resolves,
   * rolled back when it throws; a connection the transaction did not leave idle (its BEGIN, COMMIT
   * or ROLLBACK failed, the connection broke) is closed instead of going back to the pool
   */
  transaction<T>(fn: (q: PgTransaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface PostgresOptions {
  /** connections this instance may hold (DATABASE_POOL_MAX) */
  poolMax: number;
  /** connections that fail (the server restarted, the network dropped) are reported here */
  log?: Pick<Logger, 'warn'>;
}

// Every bigint this service stores is an id or an epoch-millisecond instant, far below 2^53, and the
// row types say `number` on both engines; node-postgres reads int8 as text unless told otherwise.
// drizzle falls back to this registry for the types it does not parse itself, so its raw
// statements (db.execute) and the hand-written list query read numbers too.
pg.types.setTypeParser(pg.types.builtins.INT8, Number);

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations', 'pg');

/** How long a request waits for a new connection to the server before it fails. */
export const CONNECT_TIMEOUT_MS = 5_000;

/** The advisory lock key every instance of this service takes to migrate: 'tripmigr' in ASCII. */
export const MIGRATION_LOCK_KEY = '8390875190346737522';

// Every named statement here is a key lookup or a keyset page, whose best plan does not depend on
// the values. Left to choose, PostgreSQL plans them anew at each execution whenever a custom plan
// looks cheaper, and that planning cost more than running the statement, growing with the table (a
// cursor past the histogram's end sends the planner into the index): keyset 1M ÷ 1k rows went from
// 1.39 to 0.97 and a page from ~400 to ~200 µs (npm run bench -- summary --only keyset_postgres). A startup
// option, so that it is the session's default (RESET keeps it); node-postgres lets a URL's own
// `options` replace the config's, so the setting goes in front of those.
const GENERIC_PLANS = '-c plan_cache_mode=force_generic_plan';

function withGenericPlans(url: string): { connectionString: string; options: string } {
  const options = [GENERIC_PLANS, process.env.PGOPTIONS].filter(Boolean).join(' ');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { connectionString: url, options };
  }
  const theirs = parsed.searchParams.get('options');
  if (theirs === null) return { connectionString: url, options };
  parsed.searchParams.set('options', `${GENERIC_PLANS} ${theirs}`);
  return { connectionString: parsed.toString(), options };
}

export async function openPostgresDatabase(url: string, options: PostgresOptions): Promise<PostgresDatabase> {
  const pool = new pg.Pool({
    max: options.poolMax,
    application_name: 'trip-itinerary-service',
    // A server that does not answer fails a request within seconds (503 COMMON503) instead of
    // holding it until the client gives up; keep-alive notices a peer that vanished.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    ...withGenericPlans(url),
  });
  // pg-pool listens for a connection's 'error' only while the connection is idle in the pool (and
  // re-emits it on the pool); a transaction's connection is checked out and has no listener then.
  // 'connect' comes once per new connection, before the pool takes its own listener off.
  pool.on('connect', (client) => client.on('error', reportedOnce(options.log)));
  // The connection's own listener above has reported it; this one keeps the pool's re-emit handled.
  pool.on('error', () => {});
  try {
    await migrateUnderLock(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return { db: drizzle(pool, { schema }), pool, schema, transaction: (fn) => pooledTransaction(pool, fn), close: () => (closing ??= pool.end()) };
}

/** A connection's 'error' listener: the first error is logged (a broken connection emits one or two more), the others are expected. */
function reportedOnce(log: PostgresOptions['log']): (error: Error) => void {
  let reported = false;
  return (error) => {
    if (reported) return;
    reported = true;
    log?.warn({ err: error }, 'a PostgreSQL connection failed; it is closed and its statements fail (503 COMMON503), the pool opens a new one');
  };
}

/** drizzle over one pooled connection, made once per connection. */
const handles = new WeakMap<pg.PoolClient, NodePgDatabase<typeof schema>>();

async function pooledTransaction<T>(pool: pg.Pool, fn: (q: PgTransaction) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let handle = handles.get(client);
  if (!handle) {
    handle = drizzle(client, { schema });
    handles.set(client, handle);
  }
  try {
    // drizzle's transaction over a pooled connection would leave the connection checked out for
    // good when BEGIN fails (a connection reset as it was taken): here the release is ours.
    return await handle.transaction(fn);
  } finally {
    // 'I': idle, outside any transaction (the last ReadyForQuery said so). Anything else, a failed
    // ROLLBACK or a connection that broke mid-way, must not serve the next caller: passing an error
    // to release() closes the connection.
    const idle = client.getTransactionStatus() === 'I';
    client.release(idle ? undefined : new Error(`the transaction left its connection ${client.getTransactionStatus() ?? 'without a status'}`));
  }
}

async function migrateUnderLock(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migrate(drizzle(client, { schema }), { migrationsFolder });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } catch (error) {
    // A connection whose unlock may not have run must not go back to the pool holding the lock.
    broken = error as Error;
    throw error;
  } finally {
    client.release(broken);
  }
}
