// The offline planner: an itinerary from the bundled catalogue, with no AI service, so the product
// works on a fresh clone and tests are reproducible. Everything is deterministic: no randomness, no
// clock, ties broken by catalogue key.
//
// 1. Rank the region's sights: requested themes first (more overlap, must-visit bonus), then the rest.
// 2. Cut the fitting sights into one area per day (k-means with equal group sizes, seeded
//    farthest-first, refined by pairwise swaps); each day keeps about three sights of its area, the
//    best one and those closest to it. Days follow each other nearest-neighbour.
// 3. Per day: visit the sights in nearest-neighbour order, insert the nearest free restaurant for lunch
//    and for dinner, drop a sight when the day runs past 21:00, add a nearby fitting one when it is short.
// No place is used twice in a trip: long trips take unthemed sights too, then get shorter days.
import { knownRegionNames, regionDisplayName, resolveRegion } from '../../catalogue/placeCatalogue.js';
import { keptPlacesOfRegion } from '../../catalogue/placeCache.js';
import type { DatabasePort } from '../../db/databasePort.js';
import type { PlannedDay } from '../../itinerary/plannedDay.js';
import { addDays } from '../../itinerary/tripDates.js';
import { chunkText } from '../../text/textChunks.js';
import { abortableDelay } from '../abortableDelay.js';
import { PlannerError, type PlanRequest, type Planner } from '../planner.js';
import { dayDescription, dayTitle } from './dayText.js';
import { settleDay } from './dayFitting.js';
import { compactCore, groupByGeography } from './geographicGrouping.js';
import { mealQuotas } from './mealPlacement.js';
import { orderDays } from './routeOrder.js';
import { rankSights } from './sightRanking.js';

const SIGHTS_PER_DAY = 3;

async function planTrip(db: DatabasePort, request: PlanRequest): Promise<PlannedDay[]> {
  const regionId = resolveRegion(request.region);
  if (regionId === null) throw new PlannerError(`We have no places for "${request.region}" yet. Available regions: ${knownRegionNames().join(', ')}.`);
  const regionName = regionDisplayName(regionId);
  const dayCount = request.duration;
  if (!Number.isInteger(dayCount) || dayCount < 1) throw new PlannerError('A trip lasts at least one day.');
  // Read once per process (placeCache.ts), not once per generation.
  const catalogue = await keptPlacesOfRegion(db, regionId);
  const sights = catalogue.filter((p) => p.kind === 'SIGHT');
  const restaurants = catalogue.filter((p) => p.kind === 'RESTAURANT');
  if (sights.length < dayCount) {
    throw new PlannerError(
      `A ${dayCount}-day trip is too long for our ${regionName} catalogue: it has ${sights.length} sights and a trip never visits a place twice. Choose at most ${sights.length} days.`,
    );
  }

  const ranked = rankSights(sights, request.themes);
  // Every fitting sight is a candidate, so a short trip can stay compact: the region is cut into one
  // area per day and each day keeps the best sights of its area that lie close together. Long trips
  // that need more sights than fit take the best of the rest too.
  const sightCount = Math.min(ranked.length, SIGHTS_PER_DAY * dayCount);
  const candidates = ranked.slice(0, Math.max(sightCount, ranked.filter((s) => s.fits).length));
  // Areas and day sizes both put the remainder on the first groups, so no area is smaller than its day.
  const cores = groupByGeography(candidates, dayCount).map((area, g) =>
    compactCore(area, Math.floor(sightCount / dayCount) + (g < sightCount % dayCount ? 1 : 0)),
  );
  const groups = orderDays(cores);
  const quotas = mealQuotas(
    groups.map((g) => g.length),
    restaurants.length,
  );
  const picked = new Set(cores.flat());
  let spare = candidates.filter((s) => s.fits && !picked.has(s));
  let freeRestaurants = restaurants;

  return groups.map((group, i) => {
    const { sights: daySights, dropped, draft } = settleDay(group, quotas[i]!, freeRestaurants, spare, request.transportation);
    const used = new Set(draft.visits.map((v) => v.place));
    freeRestaurants = freeRestaurants.filter((r) => !used.has(r));
    // A sight dropped from a crowded day may still suit a later one.
    spare = [...spare.filter((s) => !used.has(s.place)), ...dropped.filter((s) => s.fits)];
    const dayNumber = i + 1;
    const date = addDays(request.startDate, i);
    const title = dayTitle(dayNumber, daySights, draft.visits);
    return {
      dayNumber,
      date,
      title,
      description: dayDescription(title, date, draft.visits, request.transportation),
      stops: draft.visits.map((v) => ({
        placeId: v.place.id,
        category: v.category,
        travelTime: v.travel?.minutes ?? null,
        travelDistance: v.travel?.distanceMetres ?? null,
      })),
    };
  });
}

export function createOfflinePlanner(deps: { db: DatabasePort; delayMs: number; chunkSize?: number }): Planner {
  const chunkSize = Math.max(1, Math.floor(deps.chunkSize ?? 40));
  return {
    name: 'offline',
    async *plan(request, signal) {
      if (signal.aborted) throw signal.reason;
      const days = await planTrip(deps.db, request);
      for (const day of days) {
        if (signal.aborted) throw signal.reason;
        yield day;
      }
    },
    async *summarize(day, _request, signal) {
      if (signal.aborted) throw signal.reason;
      const chunks = chunkText(day.description, chunkSize);
      for (const [i, chunk] of chunks.entries()) {
        if (i > 0) await abortableDelay(deps.delayMs, signal);
        yield chunk;
      }
    },
  };
}
