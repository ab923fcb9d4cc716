// The committed migrations (src/db/migrations/sqlite, src/db/migrations/pg) are what drizzle-kit
// generates from the two schemas, shipped migrations never change, and a SQLite database migrated
// from the folder as it was before the move to migrations/sqlite carries on in place.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';

const root = path.resolve(import.meta.dirname, '../..');
const migrationsOf = { sqlite: path.join(root, 'src/db/migrations/sqlite'), postgresql: path.join(root, 'src/db/migrations/pg') };
const schemaOf = { sqlite: 'src/db/schema.ts', postgresql: 'src/db/schema.pg.ts' };

type Dialect = keyof typeof migrationsOf;
type Journal = { entries: { idx: number; tag: string; when: number }[] };

const journalOf = (folder: string): Journal => JSON.parse(fs.readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as Journal;
const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** Every file under a folder, relative path → content. */
function filesUnder(folder: string): Map<string, string> {
  return new Map(
    (fs.readdirSync(folder, { recursive: true }) as string[])
      .filter((name) => fs.statSync(path.join(folder, name)).isFile())
      .sort()
      .map((name) => [name, fs.readFileSync(path.join(folder, name), 'utf8')]),
  );
}

/** `drizzle-kit generate` for one dialect's schema into `out`; resolves with what it printed. */
async function generate(dialect: Dialect, out: string): Promise<string> {
  const { stdout, stderr } = await promisify(execFile)(
    path.join(root, 'node_modules/.bin/drizzle-kit'),
    // drizzle-kit prefixes `out` with './' for some reads, so it must be relative.
    ['generate', '--dialect', dialect, '--schema', schemaOf[dialect], '--out', path.relative(root, out)],
    { cwd: root, timeout: 60_000 },
  );
  return stdout + stderr;
}

/**
 * sha256 of every migration as shipped: databases record these, and drizzle's migrator never
 * re-checks an applied migration, so editing one would silently split old and new databases.
 * Add a migration's hash here when it ships; never change one.
 */
const shipped: Record<Dialect, Record<string, string>> = {
  sqlite: {
    '0000_initial': '072a3e12ef192f0f982dd806f13f3cf8523930e870a1dd3969bcc2f8413c7a81',
    '0001_storage_probe': '6f1007633666eebe9be5b8eb9ffd2108ca0cf391370214982bbd8447752b3ed6',
    '0002_session_role_and_purge': 'dbd61bbe826e50a5b0d75c09c9f96b1f5870d0b903c5ce715faf1d488ce465cc',
    '0003_generation_lease': '2891007e1b8f60dbfd42c098e38023e6d2ee261826921176203cb9735fd9bcc8',
  },
  postgresql: {
    '0000_initial': 'ce9c413c2a6a86a55c0eb3689cd8358ea18ff7044d711ef48cba8c8d284ee0db',
  },
};

describe('migrations', () => {
  let scratch: string;
  beforeEach(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
  });
  afterEach(() => fs.rmSync(scratch, { recursive: true, force: true }));

  describe.each(['sqlite', 'postgresql'] as const)('%s', (dialect) => {
    it('the committed migrations are what drizzle-kit generates from the schema: generating again adds nothing', async () => {
      const copy = path.join(scratch, 'migrations');
      fs.cpSync(migrationsOf[dialect], copy, { recursive: true });

      const printed = await generate(dialect, copy);

      expect(printed).toContain('No schema changes, nothing to migrate');
      expect(filesUnder(copy)).toEqual(filesUnder(migrationsOf[dialect]));
    });

    it('(the check above can fail) generating from the schema into an empty folder writes a migration', async () => {
      const empty = path.join(scratch, 'empty');
      await generate(dialect, empty);
      expect([...filesUnder(empty).keys()].filter((name) => name.endsWith('.sql'))).toHaveLength(1);
    });

    it('shipped migrations are unchanged, and each is newer than the one before (the migrator goes by that time)', () => {
      const folder = migrationsOf[dialect];
      const { entries } = journalOf(folder);
      for (const [tag, hash] of Object.entries(shipped[dialect])) expect(sha256(path.join(folder, `${tag}.sql`)), tag).toBe(hash);
      expect(entries.map((e) => e.idx)).toEqual(entries.map((_, i) => i));
      for (let i = 1; i < entries.length; i++) expect(entries[i]!.when).toBeGreaterThan(entries[i - 1]!.when);
    });
  });

  it('a SQLite database migrated from the old folder (through 0002) gets only 0003, keeping its rows', () => {
    // The folder as it was before the move: the same files (git mv), the journal without 0003.
    const old = path.join(scratch, 'old-migrations');
    fs.mkdirSync(path.join(old, 'meta'), { recursive: true });
    const journal = journalOf(migrationsOf.sqlite);
    const before = { ...journal, entries: journal.entries.filter((e) => e.idx <= 2) };
    fs.writeFileSync(path.join(old, 'meta/_journal.json'), JSON.stringify(before));
    for (const { tag } of before.entries) fs.copyFileSync(path.join(migrationsOf.sqlite, `${tag}.sql`), path.join(old, `${tag}.sql`));
    const file = path.join(scratch, 'old.sqlite');
    const sqlite = new BetterSqlite3(file);
    migrate(drizzle(sqlite), { migrationsFolder: old });
    sqlite.exec(`INSERT INTO member (id, email, name, provider, created_at, updated_at) VALUES (1, 'm@example.com', 'M', 'dev', 1, 1)`);
    sqlite.exec(`INSERT INTO trip_plan (member_id, title, region, start_date, end_date, duration, people_count, themes, transportation, generation_status, created_at, updated_at)
                 VALUES (1, 'Busan', 'Busan', '2026-12-24', '2026-12-26', 3, 2, '[]', 'CAR', 'COMPLETED', 1, 1)`);
    const appliedBefore = sqlite.prepare('SELECT id, hash, created_at FROM __drizzle_migrations ORDER BY id').all();
    sqlite.close();

    const reopened = openDatabase(file);
    try {
      const applied = reopened.sqlite.prepare('SELECT id, hash, created_at FROM __drizzle_migrations ORDER BY id').all() as { hash: string }[];
      expect(applied.slice(0, 3)).toEqual(appliedBefore);
      expect(applied.map((m) => m.hash)).toEqual(journal.entries.map((e) => sha256(path.join(migrationsOf.sqlite, `${e.tag}.sql`))));
      expect(reopened.sqlite.prepare('SELECT title, generation_status, gen_run, gen_attempt, gen_owner FROM trip_plan').all()).toEqual([
        { title: 'Busan', generation_status: 'COMPLETED', gen_run: 0, gen_attempt: 0, gen_owner: null },
      ]);
    } finally {
      reopened.close();
    }
    const again = openDatabase(file);
    try {
      expect(again.sqlite.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get()).toEqual({ n: journal.entries.length });
    } finally {
      again.close();
    }
  });
});
