// The catalogue's places in the database (the `place` table): mirrored from the bundled files at
// start, so itineraries reference places by a stable id, and read back by region.
import { asc, eq, inArray } from 'drizzle-orm';
import type { DatabasePort, PgQueries } from '../db/databasePort.js';
import type { places } from '../db/schema.pg.js';
import { catalogueRegions, type CataloguePlace } from './placeCatalogue.js';
import type { PlaceValues } from './placeInserts.js';
import { forgetKeptPlaces } from './placeCache.js';

export type PlaceRow = typeof places.$inferSelect;

function rowValues(region: string, place: CataloguePlace): PlaceValues {
  return {
    key: place.key,
    region,
    name: place.name,
    nameKo: place.nameKo,
    address: place.address,
    latitude: place.latitude,
    longitude: place.longitude,
    description: place.description,
    operatingHours: place.operatingHours,
    holidayInfo: place.holidayInfo,
    isMustVisit: place.isMustVisit,
    themes: place.themes,
    kind: place.kind,
    visitMinutes: place.visitMinutes,
  };
}

function sameValues(row: PlaceRow, values: PlaceValues): boolean {
  return (Object.keys(values) as (keyof PlaceValues)[]).every((field) =>
    field === 'themes' ? JSON.stringify(row.themes) === JSON.stringify(values.themes) : row[field] === values[field],
  );
}

/**
 * Upserts every catalogue place by key, in one transaction. Ids survive restarts and catalogue edits
 * because rows are matched by key; places dropped from the catalogue stay, as saved itineraries may
 * still point at them. Only rows whose content differs are rewritten, so a second run changes nothing.
 * Instances starting together on one PostgreSQL database both sync: an insert that another instance
 * made first is skipped (same key, same content), not an error.
 */
export async function syncCatalogue(db: DatabasePort): Promise<{ inserted: number; updated: number }> {
  const { places } = db.t;
  const regions = catalogueRegions();
  const synced = await db.tx(async (q) => {
    const existing = new Map((await q.select().from(places)).map((row) => [row.key, row]));
    const missing: PlaceValues[] = [];
    let updated = 0;
    for (const { region, places: regionPlaces } of regions) {
      for (const place of regionPlaces) {
        const values = rowValues(region, place);
        const row = existing.get(place.key);
        if (!row) {
          missing.push(values);
        } else if (!sameValues(row, values)) {
          await q.update(places).set(values).where(eq(places.id, row.id));
          updated++;
        }
      }
    }
    // A fresh database gets the whole catalogue, as each engine inserts it fastest (placeInserts.ts).
    const inserted = missing.length > 0 ? await db.statements.placeInserts.insertMissing(q, missing) : 0;
    return { inserted, updated };
  });
  // Read after the commit, so what a planner keeps is what this sync wrote.
  forgetKeptPlaces(db);
  return synced;
}

/** The places of a region as stored, ordered by key so callers see the same order on every database. */
export function placesOfRegion(db: DatabasePort, regionId: string): Promise<PlaceRow[]> {
  return db.run((q) => placesOfRegionWith(db, q, regionId));
}

/** placesOfRegion on a transaction the caller holds. */
export function placesOfRegionWith(db: DatabasePort, q: PgQueries, regionId: string): Promise<PlaceRow[]> {
  const { places } = db.t;
  return q.select().from(places).where(eq(places.region, regionId)).orderBy(asc(places.key)).execute();
}

export function placesByIds(db: DatabasePort, ids: number[]): Promise<PlaceRow[]> {
  const { places } = db.t;
  if (ids.length === 0) return Promise.resolve([]);
  return db.run((q) => q.select().from(places).where(inArray(places.id, ids)).execute());
}
