// Step 3 of the offline planner, part two: each day fits between 09:00 and 21:00. A long day drops
// its least wanted sights; a short one takes a nearby fitting sight that no other day uses.
import type { PlaceRow } from '../../catalogue/placeRepository.js';
import { haversineMetres, type Transportation } from '../../itinerary/travel.js';
import { centreOf } from './geographicGrouping.js';
import { draftDay } from './mealPlacement.js';
import type { RankedSight } from './sightRanking.js';

const MAX_SIGHTS_PER_DAY = 4;
/** a day that runs late is trimmed down to this many sights, never fewer */
const MIN_SIGHTS_AFTER_TRIM = 2;
const DAY_END = 21 * 60;
/** an extra sight may join a day when it is at most this far from the day's centre (or the day's own spread) */
const EXTRA_REACH_METRES = 2000;

/** The fitting spare sight nearest to the day's centre, if it is close enough to belong to the day. */
function nearbyExtra(day: readonly RankedSight[], spare: readonly RankedSight[]): RankedSight | undefined {
  const centre = centreOf(day.map((s) => s.place));
  const reach = Math.max(EXTRA_REACH_METRES, ...day.map((s) => haversineMetres(centre, s.place)));
  let best: RankedSight | undefined;
  let bestDistance = Infinity;
  for (const candidate of spare) {
    const distance = haversineMetres(centre, candidate.place);
    if (distance <= reach && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Fits the day between 09:00 and 21:00: drops the least wanted sights of a long day, adds nearby ones to a short day. */
export function settleDay(group: RankedSight[], mealCount: number, restaurants: readonly PlaceRow[], spare: readonly RankedSight[], mode: Transportation) {
  let sights = [...group];
  const draftOf = (list: readonly RankedSight[]) =>
    draftDay(
      list.map((s) => s.place),
      mealCount,
      restaurants,
      mode,
    );
  let draft = draftOf(sights);
  const dropped: RankedSight[] = [];
  while (draft.end > DAY_END && sights.length > MIN_SIGHTS_AFTER_TRIM) {
    const leastWanted = sights.reduce((a, b) => (b.rank > a.rank ? b : a));
    dropped.push(leastWanted);
    sights = sights.filter((s) => s !== leastWanted);
    draft = draftOf(sights);
  }
  let candidates = dropped.length > 0 ? [] : [...spare];
  while (sights.length < MAX_SIGHTS_PER_DAY) {
    const extra = nearbyExtra(sights, candidates);
    if (!extra) break;
    const trial = draftOf([...sights, extra]);
    if (trial.end > DAY_END) break;
    sights = [...sights, extra];
    draft = trial;
    candidates = candidates.filter((c) => c !== extra);
  }
  return { sights, dropped, draft };
}
