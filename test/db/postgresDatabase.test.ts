// Opening PostgreSQL (src/db/postgresDatabase.ts): the pg migrations are applied at open under an
// advisory lock, so instances that open a fresh database at the same moment migrate it once, and
// the schema they get stores what the SQLite schema stores (epoch ms, JSON lists, booleans,
// the partial unique index, cascades).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { MIGRATION_LOCK_KEY, openPostgresDatabase, type PostgresDatabase } from '../../src/db/postgresDatabase.js';
import { members, promptTemplates, tripPlans } from '../../src/db/schema.pg.js';
import { describeOnPostgres, freshPostgresDatabase, type FreshPostgresDatabase } from '../support/postgres.js';

const pgMigrations = path.resolve(import.meta.dirname, '../../src/db/migrations/pg');
const journal = JSON.parse(fs.readFileSync(path.join(pgMigrations, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };
const shippedHashes = journal.entries.map((e) =>
  createHash('sha256')
    .update(fs.readFileSync(path.join(pgMigrations, `${e.tag}.sql`)))
    .digest('hex'),
);

async function waitUntil(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never happened: ${what}`);
}

describeOnPostgres('opening PostgreSQL', () => {
  let fresh: FreshPostgresDatabase;
  const opened: PostgresDatabase[] = [];
  const open = async () => {
    const database = await openPostgresDatabase(fresh.url, { poolMax: 2 });
    opened.push(database);
    return database;
  };

  beforeEach(async () => {
    fresh = await freshPostgresDatabase();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((d) => d.close()));
    await fresh.drop();
  });

  it('two openings of a fresh database at once both succeed and migrate it once', async () => {
    const [a, b] = await Promise.all([open(), open()]);

    const applied = await a.db.execute<{ hash: string; created_at: string }>(sql`SELECT hash, created_at FROM drizzle.__drizzle_migrations ORDER BY id`);
    expect(applied.rows.map((r) => r.hash)).toEqual(shippedHashes);
    expect(applied.rows.map((r) => Number(r.created_at))).toEqual(journal.entries.map((e) => e.when));
    await b.db.insert(members).values({ email: 'b@example.com', name: 'B', provider: 'test', createdAt: 1, updatedAt: 1 });
    expect(await a.db.select({ email: members.email }).from(members)).toEqual([{ email: 'b@example.com' }]);
  });

  it('plans its named statements once per connection (generic plans), on every pooled connection', async () => {
    const database = await open();
    const clients = await Promise.all([database.pool.connect(), database.pool.connect()]);
    try {
      for (const client of clients) expect((await client.query('SHOW plan_cache_mode')).rows).toEqual([{ plan_cache_mode: 'force_generic_plan' }]);
    } finally {
      for (const client of clients) client.release();
    }
  });

  it('keeps generic plans next to the options a DATABASE_URL brings, and after RESET ALL', async () => {
    const url = new URL(fresh.url);
    url.searchParams.set('options', '-c statement_timeout=12345');
    const database = await openPostgresDatabase(url.toString(), { poolMax: 1 });
    opened.push(database);
    await database.pool.query('RESET ALL');
    expect((await database.pool.query('SHOW plan_cache_mode')).rows).toEqual([{ plan_cache_mode: 'force_generic_plan' }]);
    expect((await database.pool.query('SHOW statement_timeout')).rows).toEqual([{ statement_timeout: '12345ms' }]);
  });

  it('a later opening finds nothing to apply', async () => {
    await (await open()).close();
    const again = await open();
    const applied = await again.db.execute(sql`SELECT id FROM drizzle.__drizzle_migrations`);
    expect(applied.rows).toHaveLength(journal.entries.length);
  });

  it('waits for the migration lock another instance holds before migrating', async () => {
    const other = new pg.Client({ connectionString: fresh.url });
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      const opening = open();
      await waitUntil(async () => {
        const waiting = await other.query(
          `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'trip-itinerary-service' AND wait_event = 'advisory'`,
        );
        return waiting.rowCount === 1;
      }, 'the opening waits on the advisory lock');
      const tables = await other.query(`SELECT 1 FROM information_schema.tables WHERE table_schema = 'public'`);
      expect(tables.rowCount).toBe(0);

      await other.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      await opening;
      const migrated = await other.query(`SELECT 1 FROM information_schema.tables WHERE table_schema = 'public' AND table_name = 'trip_plan'`);
      expect(migrated.rowCount).toBe(1);
    } finally {
      await other.end();
    }
  });

  it('fails to open, and leaves no pool behind, when the database does not exist', async () => {
    const missing = new URL(fresh.url);
    missing.pathname = `${missing.pathname}_missing`;
    await expect(openPostgresDatabase(missing.toString(), { poolMax: 1 })).rejects.toThrow(/does not exist/);
  });

  it('stores rows the way the SQLite schema does: epoch ms as numbers, JSON lists, booleans, lease defaults', async () => {
    const { db } = await open();
    const [member] = await db
      .insert(members)
      .values({ email: 'm@example.com', name: 'M', provider: 'test', createdAt: 1_795_433_278_180, updatedAt: 1_795_433_278_180 })
      .returning();
    const [plan] = await db
      .insert(tripPlans)
      .values({
        memberId: member!.id,
        title: 'Busan',
        region: 'Busan',
        startDate: '2026-12-24',
        endDate: '2026-12-26',
        duration: 3,
        peopleCount: 2,
        themes: ['FAMOUS_SPOT', 'RESTAURANT'],
        transportation: 'PUBLIC_TRANSPORT',
        generationStatus: 'PENDING',
        createdAt: 1_795_433_278_180,
        updatedAt: 1_795_433_278_180,
      })
      .returning();
    expect(plan).toMatchObject({
      createdAt: 1_795_433_278_180,
      themes: ['FAMOUS_SPOT', 'RESTAURANT'],
      genRun: 0,
      genAttempt: 0,
      genOwner: null,
      genLeaseUntil: null,
    });
    expect(typeof plan!.createdAt).toBe('number');

    await db.delete(members).where(eq(members.id, member!.id));
    expect(await db.select().from(tripPlans)).toEqual([]);
  });

  it('allows one active prompt template per type and agent (the partial unique index), any number of inactive ones', async () => {
    const { db } = await open();
    const template = (isActive: boolean) => ({
      promptType: 'SYSTEM' as const,
      agentType: 'TRIP_AGENT' as const,
      prompt: 'p',
      isActive,
      createdAt: 1,
      updatedAt: 1,
    });
    await db.insert(promptTemplates).values([template(true), template(false), template(false)]);
    await expect(db.insert(promptTemplates).values(template(true))).rejects.toThrow();
  });
});
