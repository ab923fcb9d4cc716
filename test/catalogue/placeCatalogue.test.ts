// The bundled catalogue: its data is sound, it mirrors into the place table with stable ids, and
// region names typed by users resolve to region ids.
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabasePort } from '../../src/db/databasePort.js';
import { catalogueRegions, knownRegionNames, parseCatalogueFile, resolveRegion } from '../../src/catalogue/placeCatalogue.js';
import { keptPlacesByIds, keptPlacesOfRegion } from '../../src/catalogue/placeCache.js';
import { placesOfRegion, syncCatalogue } from '../../src/catalogue/placeRepository.js';
import { openTestDatabasePort } from '../support/testDatabase.js';

const regionIds = ['busan', 'gangneung', 'gyeongju', 'jeju', 'jeonju', 'seoul'];

describe('catalogue data', () => {
  it('has the six regions, in file order', () => {
    expect(catalogueRegions().map((r) => r.region)).toEqual(regionIds);
    expect(knownRegionNames()).toEqual(['Busan', 'Gangneung', 'Gyeongju', 'Jeju', 'Jeonju', 'Seoul']);
  });

  it.each(regionIds)('%s has at least 40 places in South Korea, sights and restaurants', (regionId) => {
    const region = catalogueRegions().find((r) => r.region === regionId)!;
    expect(region.places.length).toBeGreaterThanOrEqual(40);
    for (const place of region.places) {
      expect(place.latitude).toBeGreaterThan(33);
      expect(place.latitude).toBeLessThan(38.7);
      expect(place.longitude).toBeGreaterThan(124.5);
      expect(place.longitude).toBeLessThan(131);
      expect(place.key.startsWith(`${regionId}-`)).toBe(true);
    }
    expect(region.places.filter((p) => p.kind === 'SIGHT').length).toBeGreaterThanOrEqual(30);
    expect(region.places.filter((p) => p.kind === 'RESTAURANT').length).toBeGreaterThanOrEqual(10);
  });

  it('keys are unique across regions', () => {
    const keys = catalogueRegions().flatMap((r) => r.places.map((p) => p.key));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('a malformed file fails loudly, naming the file and the field', () => {
    expect(() => parseCatalogueFile('ulsan.json', '{ "region": ')).toThrow(/ulsan\.json.*invalid JSON/);
    const valid = { region: 'ulsan', names: ['Ulsan'], places: [] as unknown[] };
    expect(() => parseCatalogueFile('ulsan.json', JSON.stringify(valid))).toThrow(/ulsan\.json places/);
    const place = {
      key: 'ulsan-x',
      name: 'X',
      nameKo: null,
      address: 'Ulsan',
      latitude: 95,
      longitude: 129.3,
      themes: ['HEALING'],
      kind: 'SIGHT',
      description: 'x',
      visitMinutes: 60,
      operatingHours: null,
      holidayInfo: null,
      isMustVisit: false,
    };
    expect(() => parseCatalogueFile('ulsan.json', JSON.stringify({ ...valid, places: [place] }))).toThrow(/ulsan\.json places\[0\]\.latitude/);
    expect(() => parseCatalogueFile('ulsan.json', JSON.stringify({ ...valid, places: [{ ...place, latitude: 35.5, themes: ['BEACH'] }] }))).toThrow(
      /ulsan\.json places\[0\]\.themes\[0\]: unknown theme "BEACH"/,
    );
    expect(() => parseCatalogueFile('ulsan.json', JSON.stringify({ ...valid, region: 'busan', places: [{ ...place, latitude: 35.5 }] }))).toThrow(
      /must match the file name/,
    );
    expect(parseCatalogueFile('ulsan.json', JSON.stringify({ ...valid, places: [{ ...place, latitude: 35.5 }] })).places).toHaveLength(1);
  });
});

describe('syncCatalogue', () => {
  let db!: DatabasePort;
  let places!: DatabasePort['t']['places'];
  beforeAll(async () => {
    db = await openTestDatabasePort();
    places = db.t.places;
  });
  afterAll(() => db.close());
  const total = catalogueRegions().reduce((sum, r) => sum + r.places.length, 0);
  const snapshot = () => db.run((q) => q.select({ id: places.id, key: places.key }).from(places).orderBy(asc(places.id)).execute());
  const byKey = async (key: string) => (await db.run((q) => q.select().from(places).where(eq(places.key, key)).execute()))[0];

  it('inserts every place once; a second run changes nothing and keeps the ids', async () => {
    expect(await syncCatalogue(db)).toEqual({ inserted: total, updated: 0 });
    const first = await snapshot();
    expect(first).toHaveLength(total);
    expect(await syncCatalogue(db)).toEqual({ inserted: 0, updated: 0 });
    expect(await snapshot()).toEqual(first);
  });

  it('rewrites a row that drifted from the catalogue, under the same id', async () => {
    const before = (await byKey('busan-beomeosa'))!;
    await db.run((q) =>
      q
        .update(places)
        .set({ name: 'Stale name', themes: ['SHOPPING'], isMustVisit: !before.isMustVisit })
        .where(eq(places.id, before.id))
        .returning({ id: places.id }),
    );
    expect(await syncCatalogue(db)).toEqual({ inserted: 0, updated: 1 });
    expect(await byKey('busan-beomeosa')).toEqual(before);
  });

  it('adds places missing from the table without touching the others', async () => {
    const before = await snapshot();
    const removed = before.find((row) => row.key === 'jeju-udo-island')!;
    await db.run((q) => q.delete(places).where(eq(places.id, removed.id)).returning({ id: places.id }));
    expect(await syncCatalogue(db)).toEqual({ inserted: 1, updated: 0 });
    const after = await snapshot();
    expect(after.filter((row) => row.key !== 'jeju-udo-island')).toEqual(before.filter((row) => row.key !== 'jeju-udo-island'));
  });

  it('placesOfRegion returns the region rows ordered by key, with database ids and themes', async () => {
    const rows = await placesOfRegion(db, 'jeonju');
    expect(rows.length).toBe(catalogueRegions().find((r) => r.region === 'jeonju')!.places.length);
    expect(rows.every((row) => row.region === 'jeonju' && row.id > 0 && row.themes.length > 0)).toBe(true);
    expect(rows.map((row) => row.key)).toEqual(rows.map((row) => row.key).sort());
    expect(await placesOfRegion(db, 'atlantis')).toEqual([]);
  });

  it('the kept place table (what planners read) is placesOfRegion read once: a sync replaces it, an unknown id reloads it', async () => {
    for (const regionId of [...regionIds, 'atlantis']) expect(await keptPlacesOfRegion(db, regionId)).toEqual(await placesOfRegion(db, regionId));
    const before = (await byKey('busan-beomeosa'))!;
    await db.run((q) => q.update(places).set({ name: 'Stale name' }).where(eq(places.id, before.id)).returning({ id: places.id }));
    // Kept: a write that bypasses syncCatalogue is not seen...
    expect((await keptPlacesOfRegion(db, 'busan')).find((p) => p.id === before.id)!.name).toBe(before.name);
    // ...until the sync that puts the catalogue back, which forgets what was kept.
    await syncCatalogue(db);
    expect(await keptPlacesOfRegion(db, 'busan')).toEqual(await placesOfRegion(db, 'busan'));

    const [added] = await db.run((q) =>
      q
        .insert(places)
        .values({ ...before, id: undefined, key: 'busan-test-added', name: 'Added' })
        .returning(),
    );
    expect((await keptPlacesByIds(db, [before.id, added!.id])).get(added!.id)).toEqual(added);
    await expect(keptPlacesByIds(db, [-1])).rejects.toThrow(/no place with id -1/);
    await db.run((q) => q.delete(places).where(eq(places.id, added!.id)).returning({ id: places.id }));
  });
});

describe('resolveRegion', () => {
  it.each([
    ['Busan', 'busan'],
    ['busan', 'busan'],
    ['  BUSAN ', 'busan'],
    ['부산', 'busan'],
    ['부산광역시', 'busan'],
    ['부산 광역시', 'busan'],
    ['Busan City', 'busan'],
    ['Busan Metropolitan City', 'busan'],
    ['서울', 'seoul'],
    ['서울특별시', 'seoul'],
    ['Seoul Special City', 'seoul'],
    ['jeju-do', 'jeju'],
    ['Jeju Island', 'jeju'],
    ['제주특별자치도', 'jeju'],
    ['Jeju Special Self-Governing Province', 'jeju'],
    ['경주시', 'gyeongju'],
    ['Gyeongju-si', 'gyeongju'],
    ['강릉', 'gangneung'],
    ['JEONJU', 'jeonju'],
    ['전주 시', 'jeonju'],
  ])('%s -> %s', (input, regionId) => {
    expect(resolveRegion(input)).toBe(regionId);
  });

  it.each(['', '   ', 'Tokyo', 'Busanx', '대구', 'city', 'do'])('unknown %j -> null', (input) => {
    expect(resolveRegion(input)).toBeNull();
  });
});
