// Opens a PostgreSQL database: a node-postgres pool, drizzle over it with the pg schema, and the
// migrations of src/db/migrations/pg applied before anything else uses it. Several instances may
// open the same database at once (a rolling deploy, a scaled-up service): the migrations run under
// a session-level advisory lock, so the first instance migrates and the others wait for it and then
// find nothing left to apply.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { Logger } from '../logger.js';
import * as schema from './schema.pg.js';

export type PgDb = NodePgDatabase<typeof schema> & { $client: pg.Pool };

export interface PostgresDatabase {
  db: PgDb;
  pool: pg.Pool;
  /** the tables (schema.pg.ts), handed to the port from here so that a SQLite start never loads pg-core */
  schema: typeof schema;
  close(): Promise<void>;
}

export interface PostgresOptions {
  /** connections this instance may hold (DATABASE_POOL_MAX) */
  poolMax: number;
  /** idle connections that fail (the server restarted, the network dropped) are reported here */
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
// 1.39 to 0.97 and a page from ~400 to ~200 µs (npm run bench -- --only keyset_postgres). A startup
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
  // Without a listener, an idle connection's error (e.g. the server restarting) is thrown as an
  // unhandled 'error' event and ends the process; the pool drops that connection by itself.
  pool.on('error', (error) => options.log?.warn({ err: error }, 'idle PostgreSQL connection failed; the pool drops it'));
  try {
    await migrateUnderLock(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return { db: drizzle(pool, { schema }), pool, schema, close: () => (closing ??= pool.end()) };
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
