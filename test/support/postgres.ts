// PostgreSQL for tests: `describeOnPostgres` runs a suite only when PostgreSQL answered the global
// setup (test/support/postgresGlobalSetup.ts prints the one line saying why it was skipped), and
// `freshPostgresDatabase()` creates an empty database of this run (trip_<run>_<random>), dropped
// by `drop()` or, at the latest, when the run ends.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, inject } from 'vitest';

export const postgresForTests = inject('postgres');

export const describeOnPostgres = describe.skipIf(!postgresForTests.available);

export interface FreshPostgresDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/**
 * A new database of this run: empty, or with `migrated`, a copy of the run's template (migrations
 * applied, the catalogue synced), which is what a test app starts on.
 */
export async function freshPostgresDatabase(options: { migrated?: boolean } = {}): Promise<FreshPostgresDatabase> {
  if (!postgresForTests.available) throw new Error(`PostgreSQL is not available: ${postgresForTests.reason}`);
  const { adminUrl, runPrefix, template } = postgresForTests;
  const name = `${runPrefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"${options.migrated ? ` TEMPLATE "${template}"` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // A copy carries the template's identity (database_identity), as any copy of a database does;
  // each test database stands for a database of its own, so it gets an identity of its own.
  if (options.migrated) await renewIdentity(url.toString());
  return { name, url: url.toString(), drop: () => dropDatabase(adminUrl, name) };
}

async function renewIdentity(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('UPDATE database_identity SET id = $1', [randomBytes(12).toString('hex')]);
  } finally {
    await client.end();
  }
}

async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
