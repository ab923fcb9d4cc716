// Step 1 of the offline planner: the region's sights in order of preference, the requested themes
// first (more overlap, then a must-visit bonus), then the rest; ties by catalogue key.
import type { PlaceRow } from '../../catalogue/placeRepository.js';

export interface RankedSight {
  place: PlaceRow;
  /** position in the preference order, 0 = most wanted */
  rank: number;
  /** shares a requested theme */
  fits: boolean;
  /** requested themes it has, plus one for a must-visit */
  score: number;
}

function compareKeys(a: PlaceRow, b: PlaceRow): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

export function rankSights(sights: PlaceRow[], themes: readonly string[]): RankedSight[] {
  // Meals come from restaurants whatever the themes, so RESTAURANT says nothing about sights.
  const wanted = new Set(themes.filter((theme) => theme !== 'RESTAURANT'));
  const scored = sights.map((place) => {
    const overlap = place.themes.filter((theme) => wanted.has(theme)).length;
    return { place, fits: wanted.size === 0 || overlap > 0, score: overlap + (place.isMustVisit ? 1 : 0) };
  });
  scored.sort((a, b) => Number(b.fits) - Number(a.fits) || b.score - a.score || compareKeys(a.place, b.place));
  return scored.map(({ place, fits, score }, rank) => ({ place, rank, fits, score }));
}
