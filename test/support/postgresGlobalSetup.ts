// vitest global setup: does PostgreSQL answer? Once per `vitest run`, before any test file.
// - It answers: tests get the admin URL and this run's database-name prefix (test/support/postgres.ts
//   creates fresh databases under it); at the end every database under the prefix is dropped.
// - It does not: the PostgreSQL tests are skipped and one line says why, so `npm test` on a machine
//   without PostgreSQL still passes; with CI=true (set by .ci/run) the run fails instead.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { syncCatalogue } from '../../src/catalogue/placeRepository.js';
import { openDatabasePort } from '../../src/composition/openDatabase.js';

export type PostgresForTests =
  | {
      available: true;
      adminUrl: string;
      runPrefix: string;
      /** a database of this run, migrated and with the catalogue synced: fresh app databases are copies of it */
      template: string;
    }
  | { available: false; reason: string };

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: PostgresForTests;
  }
}

/** Trust auth on 127.0.0.1 (our machines); TEST_POSTGRES_URL points the tests elsewhere. */
export const adminUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function whyPostgresDoesNotAnswer(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return (error as Error).message || String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Drops every database whose name starts with the prefix (the run's own, never anyone else's). */
export async function dropDatabasesUnder(url: string, prefix: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/**
 * Migrates a database once per run and syncs the catalogue into it, so a test app's database is a
 * copy (CREATE DATABASE … TEMPLATE) instead of a migration and a catalogue sync of its own.
 */
async function createTemplate(url: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const templateUrl = new URL(url);
  templateUrl.pathname = `/${name}`;
  const port = await openDatabasePort({ engine: 'postgres', url: templateUrl.toString(), poolMax: 2 });
  try {
    await syncCatalogue(port);
  } finally {
    // No connection may stay open to a template that CREATE DATABASE copies.
    await port.close();
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const where = new URL(adminUrl).host;
  const reason = await whyPostgresDoesNotAnswer(adminUrl);
  if (reason !== null) {
    if (process.env.CI === 'true') {
      throw new Error(`PostgreSQL does not answer at ${where} (${reason}); CI requires it: .ci/run starts it, or set TEST_POSTGRES_URL`);
    }
    console.warn(`PostgreSQL tests skipped: nothing answers at ${where} (${reason}); start PostgreSQL there or set TEST_POSTGRES_URL`);
    project.provide('postgres', { available: false, reason });
    return undefined;
  }
  const runPrefix = `trip_${randomBytes(4).toString('hex')}`;
  const template = `${runPrefix}_template`;
  try {
    await createTemplate(adminUrl, template);
  } catch (error) {
    await dropDatabasesUnder(adminUrl, runPrefix);
    throw error;
  }
  project.provide('postgres', { available: true, adminUrl, runPrefix, template });
  return () => dropDatabasesUnder(adminUrl, runPrefix);
}
