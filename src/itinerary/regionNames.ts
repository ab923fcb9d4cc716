// What users type for a region ("Busan", "부산 광역시", "jeju-do") and the region id it means.
// Matching ignores case, spacing and punctuation, and an administrative suffix people add or leave
// out; the names themselves come from the catalogue (catalogue/placeCatalogue.ts).

/** A region id and what users may type for it, English and Korean. */
export interface RegionNames {
  region: string;
  names: string[];
}

// Administrative suffixes people add or leave out ("Busan Metropolitan City", "부산 광역시", "jeju-do").
// Longest first so "특별자치도" is tried before "도".
const regionSuffixes = [
  'specialselfgoverningprovince',
  'metropolitancity',
  'specialcity',
  'province',
  'island',
  'city',
  'do',
  'si',
  '특별자치도',
  '광역시',
  '특별시',
  '시',
  '도',
].sort((a, b) => b.length - a.length);

function normaliseRegionText(input: string): string {
  return input
    .normalize('NFC')
    .toLowerCase()
    .replace(/[\s\-_.,·]+/gu, '');
}

/** The region id for what a user typed, or null when unknown. Throws when two regions share a name. */
export function createRegionResolver(regions: readonly RegionNames[]): (input: string) => string | null {
  const lookup = new Map<string, string>();
  for (const { region, names } of regions) {
    for (const name of [region, ...names]) {
      const normalised = normaliseRegionText(name);
      const other = lookup.get(normalised);
      if (other !== undefined && other !== region) throw new Error(`region name "${name}" of ${region} is also a name of ${other}`);
      lookup.set(normalised, region);
    }
  }
  return (input) => {
    const normalised = normaliseRegionText(input);
    if (normalised === '') return null;
    const exact = lookup.get(normalised);
    if (exact !== undefined) return exact;
    for (const suffix of regionSuffixes) {
      if (normalised.length > suffix.length && normalised.endsWith(suffix)) {
        const found = lookup.get(normalised.slice(0, -suffix.length));
        if (found !== undefined) return found;
      }
    }
    return null;
  };
}

/** The English name of a region (its first name in Latin letters), for messages and lists. */
export function englishName({ region, names }: RegionNames): string {
  return names.find((name) => /^[A-Za-z][A-Za-z .'-]*$/.test(name)) ?? region;
}
