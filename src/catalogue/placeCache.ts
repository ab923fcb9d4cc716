// The place table read once per database handle and kept: a generation read the region's places on
// every run and the saved day's places back after every insert (5.9% and part of 17.8% of the
// generation CPU, measured in the performance work). The table is written only by syncCatalogue at
// start (the bundled files are its source), which forgets what was kept; ids never change meaning
// (rows are matched by key). A place id the cache does not know (a row added after it was read:
// test fixtures) reloads it once.
import { asc } from 'drizzle-orm';
import type { DatabasePort } from '../db/databasePort.js';
import type { PlaceRow } from './placeRepository.js';

interface KeptPlaces {
  byId: ReadonlyMap<number, PlaceRow>;
  /** each region's rows ordered by key, as placesOfRegion returns them */
  byRegion: ReadonlyMap<string, readonly PlaceRow[]>;
}

// Keyed by the engine: every port over one connection (a metrics wrapper, the test's own) shares it.
const kept = new WeakMap<object, Promise<KeptPlaces>>();

async function load(db: DatabasePort): Promise<KeptPlaces> {
  const { places } = db.t;
  const rows = await db.run((q) => q.select().from(places).orderBy(asc(places.key)).execute());
  const byRegion = new Map<string, PlaceRow[]>();
  for (const row of rows) {
    const region = byRegion.get(row.region);
    if (region) region.push(row);
    else byRegion.set(row.region, [row]);
  }
  return { byId: new Map(rows.map((row) => [row.id, row])), byRegion };
}

function keptPlaces(db: DatabasePort): Promise<KeptPlaces> {
  let places = kept.get(db.engine);
  if (!places) {
    places = load(db);
    kept.set(db.engine, places);
    // A failed read is not kept: the next call tries again.
    places.catch(() => kept.delete(db.engine));
  }
  return places;
}

/** Drops what was kept for this database (syncCatalogue calls it). */
export function forgetKeptPlaces(db: DatabasePort): void {
  kept.delete(db.engine);
}

/** placesOfRegion from the kept table: the same rows in the same order; callers must not change them. */
export async function keptPlacesOfRegion(db: DatabasePort, regionId: string): Promise<readonly PlaceRow[]> {
  return (await keptPlaces(db)).byRegion.get(regionId) ?? [];
}

/** The rows of these place ids; throws when one is not in the table. */
export async function keptPlacesByIds(db: DatabasePort, ids: readonly number[]): Promise<ReadonlyMap<number, PlaceRow>> {
  let { byId } = await keptPlaces(db);
  if (ids.some((id) => !byId.has(id))) {
    forgetKeptPlaces(db);
    ({ byId } = await keptPlaces(db));
    const unknown = ids.filter((id) => !byId.has(id));
    if (unknown.length > 0) throw new Error(`no place with id ${unknown.join(', ')}`);
  }
  return byId;
}
