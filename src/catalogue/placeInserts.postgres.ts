// The catalogue's inserts on PostgreSQL (placeInserts.ts): multi-row inserts, a round trip each. An
// insert that another instance starting on the same database made first is skipped (same key, same
// content), not an error.
import type { PostgresPort } from '../db/databasePort.js';
import type { PlaceInserts } from './placeInserts.js';

/** Rows per insert: 14 values a row stays far below PostgreSQL's 65,535 parameters. */
const INSERT_BATCH = 100;

export function postgresPlaceInserts(engine: PostgresPort): PlaceInserts {
  const { places } = engine.t;
  return {
    async insertMissing(q, values) {
      let inserted = 0;
      for (let at = 0; at < values.length; at += INSERT_BATCH) {
        const added = await q
          .insert(places)
          .values(values.slice(at, at + INSERT_BATCH))
          .onConflictDoNothing({ target: places.key })
          .returning({ id: places.id });
        inserted += added.length;
      }
      return inserted;
    },
  };
}
