// The catalogue's inserts on SQLite (placeInserts.ts): one better-sqlite3 statement, prepared once
// per connection, run per place inside the caller's transaction. The values are stored as drizzle
// stores them (schema.ts: themes as JSON text, isMustVisit as 0/1), so that the sync's comparison,
// which reads them back through drizzle, finds them unchanged (test/catalogue/placeCatalogue.test.ts).
import type { Db } from '../db/database.js';
import type { PgQueries } from '../db/databasePort.js';
import { prepared } from '../db/preparedStatements.js';
import type { PlaceInserts } from './placeInserts.js';

const insertPlace = `INSERT INTO place (key, region, name, name_ko, address, latitude, longitude, description, operating_hours, holiday_info, is_must_visit, themes, kind, visit_minutes)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING`;

// The handle the port's tx() gives is the SQLite drizzle instance (databasePort.ts).
const sqliteClient = (q: PgQueries) => (q as unknown as Db).$client;

export const sqlitePlaceInserts: PlaceInserts = {
  insertMissing(q, values) {
    const client = sqliteClient(q);
    const statement = prepared(client, 'catalogue:insertPlace', () => client.prepare(insertPlace));
    let inserted = 0;
    for (const place of values) {
      const { changes } = statement.run(
        place.key,
        place.region,
        place.name,
        place.nameKo ?? null,
        place.address,
        place.latitude,
        place.longitude,
        place.description,
        place.operatingHours ?? null,
        place.holidayInfo ?? null,
        place.isMustVisit ? 1 : 0,
        JSON.stringify(place.themes),
        place.kind,
        place.visitMinutes,
      );
      inserted += changes;
    }
    return Promise.resolve(inserted);
  },
};
