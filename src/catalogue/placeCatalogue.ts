// The bundled place catalogue: one JSON file per region under ./data, read and checked once, then
// mirrored into the `place` table so itineraries can reference places by a stable database id.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { asc, eq } from 'drizzle-orm';
import type { components } from '../../generated/openapi.js';
import type { Db } from '../db/database.js';
import { places } from '../db/schema.js';
import type { PlaceRow } from '../trips/dailyPlanRepository.js';

type PlaceThemeType = components['schemas']['PlaceThemeType'];

export interface CataloguePlace {
  key: string;
  name: string;
  nameKo: string | null;
  address: string;
  latitude: number;
  longitude: number;
  themes: PlaceThemeType[];
  kind: 'SIGHT' | 'RESTAURANT';
  description: string;
  visitMinutes: number;
  operatingHours: string | null;
  holidayInfo: string | null;
  isMustVisit: boolean;
}

export interface CatalogueRegion {
  /** region id, also the file name: `busan` for data/busan.json */
  region: string;
  /** what users may type for this region, English and Korean */
  names: string[];
  places: CataloguePlace[];
}

const dataFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'data');

// A Record so that a theme added to the contract fails type-checking here until it is listed.
const themeSet: Record<PlaceThemeType, true> = {
  FAMOUS_SPOT: true,
  HEALING: true,
  SNS_HOTSPOT: true,
  EXPERIENCE_ACTIVITY: true,
  CULTURE_ART: true,
  SHOPPING: true,
  RESTAURANT: true,
};

// Plain Error on purpose: a broken catalogue is a bug in the bundle and must stop startup.
function fail(where: string, problem: string): never {
  throw new Error(`${where}: ${problem}`);
}

function record(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(where, 'must be an object');
  return value as Record<string, unknown>;
}

function text(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.trim() === '') fail(where, 'must be a non-empty string');
  return value;
}

function optionalText(value: unknown, where: string): string | null {
  return value === null || value === undefined ? null : text(value, where);
}

function numberBetween(value: unknown, min: number, max: number, where: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) fail(where, `must be a number between ${min} and ${max}`);
  return value;
}

function parsePlace(value: unknown, where: string): CataloguePlace {
  const raw = record(value, where);
  const themes = raw.themes;
  if (!Array.isArray(themes) || themes.length === 0) fail(`${where}.themes`, 'must be a non-empty array');
  for (const [i, theme] of themes.entries()) {
    if (typeof theme !== 'string' || !Object.hasOwn(themeSet, theme)) fail(`${where}.themes[${i}]`, `unknown theme ${JSON.stringify(theme)}`);
  }
  if (raw.kind !== 'SIGHT' && raw.kind !== 'RESTAURANT') fail(`${where}.kind`, 'must be SIGHT or RESTAURANT');
  if (typeof raw.isMustVisit !== 'boolean') fail(`${where}.isMustVisit`, 'must be a boolean');
  const visitMinutes = numberBetween(raw.visitMinutes, 1, 720, `${where}.visitMinutes`);
  if (!Number.isInteger(visitMinutes)) fail(`${where}.visitMinutes`, 'must be an integer');
  return {
    key: text(raw.key, `${where}.key`),
    name: text(raw.name, `${where}.name`),
    nameKo: optionalText(raw.nameKo, `${where}.nameKo`),
    address: text(raw.address, `${where}.address`),
    latitude: numberBetween(raw.latitude, -90, 90, `${where}.latitude`),
    longitude: numberBetween(raw.longitude, -180, 180, `${where}.longitude`),
    themes: themes as PlaceThemeType[],
    kind: raw.kind,
    description: text(raw.description, `${where}.description`),
    visitMinutes,
    operatingHours: optionalText(raw.operatingHours, `${where}.operatingHours`),
    holidayInfo: optionalText(raw.holidayInfo, `${where}.holidayInfo`),
    isMustVisit: raw.isMustVisit,
  };
}

/** Parses and checks one catalogue file; errors name the file and the offending field. */
export function parseCatalogueFile(file: string, json: string): CatalogueRegion {
  const where = `place catalogue ${file}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    fail(where, `invalid JSON (${(error as Error).message})`);
  }
  const raw = record(parsed, where);
  const region = text(raw.region, `${where} region`);
  if (`${region}.json` !== file) fail(where, `region "${region}" must match the file name`);
  if (!Array.isArray(raw.names) || raw.names.length === 0) fail(`${where} names`, 'must be a non-empty array');
  const names = raw.names.map((name, i) => text(name, `${where} names[${i}]`));
  if (!Array.isArray(raw.places) || raw.places.length === 0) fail(`${where} places`, 'must be a non-empty array');
  return { region, names, places: raw.places.map((place, i) => parsePlace(place, `${where} places[${i}]`)) };
}

function loadRegions(): CatalogueRegion[] {
  // Sorted so every derived list (known names, sync order) is the same on every machine.
  const files = fs.readdirSync(dataFolder).filter((file) => file.endsWith('.json')).sort();
  const regions = files.map((file) => parseCatalogueFile(file, fs.readFileSync(path.join(dataFolder, file), 'utf8')));
  const keys = new Set<string>();
  for (const { region, places: regionPlaces } of regions) {
    for (const place of regionPlaces) {
      if (keys.has(place.key)) fail(`place catalogue ${region}.json`, `duplicate place key "${place.key}"`);
      keys.add(place.key);
    }
  }
  return regions;
}

let loaded: CatalogueRegion[] | undefined;

export function catalogueRegions(): readonly CatalogueRegion[] {
  loaded ??= loadRegions();
  return loaded;
}

// Administrative suffixes people add or leave out ("Busan Metropolitan City", "부산 광역시", "jeju-do").
// Longest first so "특별자치도" is tried before "도".
const regionSuffixes = ['specialselfgoverningprovince', 'metropolitancity', 'specialcity', 'province', 'island', 'city', 'do', 'si', '특별자치도', '광역시', '특별시', '시', '도']
  .sort((a, b) => b.length - a.length);

function normaliseRegionText(input: string): string {
  return input.normalize('NFC').toLowerCase().replace(/[\s\-_.,·]+/gu, '');
}

let regionLookup: Map<string, string> | undefined;

function lookup(): Map<string, string> {
  if (regionLookup) return regionLookup;
  const map = new Map<string, string>();
  for (const { region, names } of catalogueRegions()) {
    for (const name of [region, ...names]) {
      const normalised = normaliseRegionText(name);
      const other = map.get(normalised);
      if (other !== undefined && other !== region) fail(`place catalogue ${region}.json`, `region name "${name}" is also a name of ${other}`);
      map.set(normalised, region);
    }
  }
  regionLookup = map;
  return map;
}

/** The region id for what a user typed (`Busan`, `부산 광역시`, `jeju-do`), or null when unknown. */
export function resolveRegion(input: string): string | null {
  const normalised = normaliseRegionText(input);
  if (normalised === '') return null;
  const map = lookup();
  const exact = map.get(normalised);
  if (exact !== undefined) return exact;
  for (const suffix of regionSuffixes) {
    if (normalised.length > suffix.length && normalised.endsWith(suffix)) {
      const found = map.get(normalised.slice(0, -suffix.length));
      if (found !== undefined) return found;
    }
  }
  return null;
}

function englishName({ region, names }: CatalogueRegion): string {
  return names.find((name) => /^[A-Za-z][A-Za-z .'-]*$/.test(name)) ?? region;
}

/** One English name per region, for messages that tell the user what is available. */
export function knownRegionNames(): string[] {
  return catalogueRegions().map(englishName);
}

/** The English display name of a region id, e.g. `Busan` for `busan`. */
export function regionDisplayName(regionId: string): string {
  const region = catalogueRegions().find((r) => r.region === regionId);
  return region ? englishName(region) : regionId;
}

type PlaceValues = Omit<typeof places.$inferInsert, 'id' | 'imageUrl'>;

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
 */
export function syncCatalogue(db: Db): { inserted: number; updated: number } {
  const regions = catalogueRegions();
  return db.transaction((tx) => {
    const existing = new Map(tx.select().from(places).all().map((row) => [row.key, row]));
    let inserted = 0;
    let updated = 0;
    for (const { region, places: regionPlaces } of regions) {
      for (const place of regionPlaces) {
        const values = rowValues(region, place);
        const row = existing.get(place.key);
        if (!row) {
          tx.insert(places).values(values).run();
          inserted++;
        } else if (!sameValues(row, values)) {
          tx.update(places).set(values).where(eq(places.id, row.id)).run();
          updated++;
        }
      }
    }
    return { inserted, updated };
  });
}

/** The places of a region as stored, ordered by key so callers see the same order on every database. */
export function placesOfRegion(db: Db, regionId: string): PlaceRow[] {
  return db.select().from(places).where(eq(places.region, regionId)).orderBy(asc(places.key)).all();
}
