// The regions a planner can plan (listRegions in openapi.yaml), and the check createTripPlanSession
// makes with them (TRIP107), so an unknown region is refused when the plan is created instead of
// failing later inside the generation.
import type { components } from '../../generated/openapi.js';
import { catalogueRegions, regionDisplayName, resolveRegion } from './placeCatalogue.js';

type RegionListResponse = components['schemas']['RegionListResponse'];

export interface PlannerRegions {
  /** the body of listRegions */
  list(): RegionListResponse;
  /** true when a plan may be created for what the user typed */
  accepts(region: string): boolean;
}

/**
 * The bundled catalogue's regions: each one's English display name, and its other names (Korean
 * names, spellings with an administrative suffix). Matching is resolveRegion's, which also ignores
 * case, spacing and a suffix such as `City` or `광역시`.
 */
export function catalogueRegionsOnly(): PlannerRegions {
  const regions = catalogueRegions().map(({ region, names }) => {
    const name = regionDisplayName(region);
    const seen = new Set([name.toLowerCase()]);
    const aliases: string[] = [];
    for (const alias of names) {
      if (seen.has(alias.toLowerCase())) continue;
      seen.add(alias.toLowerCase());
      aliases.push(alias);
    }
    return { name, aliases };
  });
  return {
    list: () => ({ acceptsAnyRegion: false, regions: regions.map((r) => ({ name: r.name, aliases: [...r.aliases] })) }),
    accepts: (region) => resolveRegion(region) !== null,
  };
}
