// The bundled place catalogue: one JSON file per region under ./data, read and checked once
// (placeRepository.ts mirrors it into the `place` table), and the names of its regions.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { components } from '../../generated/openapi.js';
import { createRegionResolver, englishName, type RegionNames } from '../itinerary/regionNames.js';

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

export interface CatalogueRegion extends RegionNames {
  /** region id, also the file name: `busan` for data/busan.json */
  region: string;
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
  const files = fs
    .readdirSync(dataFolder)
    .filter((file) => file.endsWith('.json'))
    .sort();
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

let resolver: ((input: string) => string | null) | undefined;

/** The region id for what a user typed (`Busan`, `부산 광역시`, `jeju-do`), or null when unknown. */
export function resolveRegion(input: string): string | null {
  resolver ??= createRegionResolver(catalogueRegions());
  return resolver(input);
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
