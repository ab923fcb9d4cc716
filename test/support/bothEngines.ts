// One suite, two engines: `describeOnBothEngines` runs it on a SQLite database in memory (fresh per
// test) and on a fresh PostgreSQL database of this run (one per suite, emptied before each test,
// dropped at the end; skipped with the one line of postgresGlobalSetup.ts when PostgreSQL is absent).
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest';
import { databasePortOf } from '../../src/composition/openDatabase.js';
import { openDatabase } from '../../src/db/database.js';
import { postgresPort, sqlitePort, type DatabasePort } from '../../src/db/databasePort.js';
import { openPostgresDatabase } from '../../src/db/postgresDatabase.js';
import { withPlainSql } from './plainSql.js';
import { describeOnPostgres, freshPostgresDatabase, type FreshPostgresDatabase } from './postgres.js';

/** The port of the current test (call it inside a test or hook). */
export type CurrentPort = () => DatabasePort;

export function describeOnBothEngines(name: string, suite: (port: CurrentPort) => void, options: { poolMax?: number } = {}): void {
  describe(`${name} (SQLite)`, () => {
    let port: DatabasePort | undefined;
    beforeEach(() => {
      port = databasePortOf(sqlitePort(openDatabase(':memory:')));
    });
    afterEach(async () => {
      await port?.close();
      port = undefined;
    });
    suite(() => port!);
  });

  describeOnPostgres(`${name} (PostgreSQL)`, () => {
    let fresh: FreshPostgresDatabase;
    let port: DatabasePort | undefined;
    beforeAll(async () => {
      fresh = await freshPostgresDatabase();
      port = databasePortOf(postgresPort(await openPostgresDatabase(fresh.url, { poolMax: options.poolMax ?? 4 })));
    });
    beforeEach(async () => {
      // Members take their plans, days and chats with them (ON DELETE CASCADE).
      await withPlainSql(port!, async (s) => {
        await s.run(sql`DELETE FROM member`);
        await s.run(sql`DELETE FROM place`);
      });
    });
    afterAll(async () => {
      await port?.close();
      await fresh?.drop();
    });
    suite(() => port!);
  });
}
