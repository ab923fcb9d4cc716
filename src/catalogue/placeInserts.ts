// How the catalogue's sync (placeRepository.ts) inserts the places a database does not have yet,
// per engine: on a fresh database that is the whole catalogue, the larger part of a first start's
// database work. On PostgreSQL a few multi-row inserts, one round trip each (placeInserts.postgres.ts);
// on SQLite, where a statement costs no round trip but drizzle's building of a multi-row insert cost
// more than SQLite's work, one statement prepared once and run per place (placeInserts.sqlite.ts).
// The composition root picks the opened engine's.
import type { PgQueries } from '../db/databasePort.js';
import type { places } from '../db/schema.pg.js';

/** A catalogue place as stored, but for what the database assigns (id) or the catalogue lacks (imageUrl). */
export type PlaceValues = Omit<typeof places.$inferInsert, 'id' | 'imageUrl'>;

export interface PlaceInserts {
  /** Inserts each place whose key is not stored yet, in the caller's transaction (its handle `q`); resolves with how many it inserted. */
  insertMissing(q: PgQueries, values: PlaceValues[]): Promise<number>;
}

declare module '../db/databasePort.js' {
  interface EngineStatements {
    placeInserts: PlaceInserts;
  }
}
