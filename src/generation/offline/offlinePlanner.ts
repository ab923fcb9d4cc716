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
import type { Db } from '../db/database.js';
import type { PlaceRow } from '../catalogue/placeRepository.js';
import { addDays } from '../itinerary/tripDates.js';
import { longDate, placeLabel, stopCountText, travelText, travelTotalLine } from '../itinerary/dayMarkdown.js';
import { abortableDelay } from './abortableDelay.js';
import { chunkText } from '../text/textChunks.js';
import { knownRegionNames, regionDisplayName, resolveRegion } from '../catalogue/placeCatalogue.js';
import { placesOfRegion } from '../catalogue/placeRepository.js';
import type { PlannedDay, PlannedStop } from '../itinerary/plannedDay.js';
import { PlannerError, type PlanRequest, type Planner } from './planner.js';
import { haversineMetres, travelBetween, type Coordinates, type Transportation } from '../itinerary/travel.js';

type TimeOfDay = PlannedStop['category'];

const SIGHTS_PER_DAY = 3;
const MAX_SIGHTS_PER_DAY = 4;
/** a day that runs late is trimmed down to this many sights, never fewer */
const MIN_SIGHTS_AFTER_TRIM = 2;
const MEALS_PER_DAY = 2;
const DAY_START = 9 * 60;
const DAY_END = 21 * 60;
const LUNCH_FROM = 11 * 60 + 30;
const LUNCH_TARGET = 12 * 60;
const DINNER_FROM = 17 * 60 + 30;
/** sights after lunch that would end later than this wait until after dinner */
const AFTERNOON_UNTIL = 18 * 60 + 30;
/** an extra sight may join a day when it is at most this far from the day's centre (or the day's own spread) */
const EXTRA_REACH_METRES = 2000;
const CLUSTER_ROUNDS = 50;
/** how far a day's core will reach for one more point of theme score */
const METRES_PER_SCORE = 2000;
const TITLE_MAX = 200;

interface RankedSight {
  place: PlaceRow;
  /** position in the preference order, 0 = most wanted */
  rank: number;
  /** shares a requested theme */
  fits: boolean;
  /** requested themes it has, plus one for a must-visit */
  score: number;
}

interface Visit {
  place: PlaceRow;
  meal: 'lunch' | 'dinner' | null;
  category: TimeOfDay;
  /** minutes after midnight */
  start: number;
  travel: { distanceMetres: number; minutes: number } | null;
}

interface DayDraft {
  visits: Visit[];
  end: number;
}

function compareKeys(a: PlaceRow, b: PlaceRow): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

function rankSights(sights: PlaceRow[], themes: readonly string[]): RankedSight[] {
  // Meals come from restaurants whatever the themes, so RESTAURANT says nothing about sights.
  const wanted = new Set(themes.filter((theme) => theme !== 'RESTAURANT'));
  const scored = sights.map((place) => {
    const overlap = place.themes.filter((theme) => wanted.has(theme)).length;
    return { place, fits: wanted.size === 0 || overlap > 0, score: overlap + (place.isMustVisit ? 1 : 0) };
  });
  scored.sort((a, b) => Number(b.fits) - Number(a.fits) || b.score - a.score || compareKeys(a.place, b.place));
  return scored.map(({ place, fits, score }, rank) => ({ place, rank, fits, score }));
}

// ---- grouping sights into days -------------------------------------------------------------------

interface Point {
  x: number;
  y: number;
}

/** Metres on a local flat projection; good enough inside one region and lets k-means average. */
function project(places: readonly Coordinates[]): Point[] {
  const lat0 = places.reduce((sum, p) => sum + p.latitude, 0) / places.length;
  const lon0 = places.reduce((sum, p) => sum + p.longitude, 0) / places.length;
  const metresPerDegLon = 111_320 * Math.cos((lat0 * Math.PI) / 180);
  return places.map((p) => ({ x: (p.longitude - lon0) * metresPerDegLon, y: (p.latitude - lat0) * 110_574 }));
}

function planeDistance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

/** First seed is the most wanted sight; each next one is the point farthest from all seeds so far. */
function farthestFirstSeeds(points: Point[], count: number): Point[] {
  const seeds = [points[0]!];
  const nearestSeed = points.map((p) => planeDistance(p, points[0]!));
  while (seeds.length < count) {
    let farthest = 0;
    for (let i = 1; i < points.length; i++) if (nearestSeed[i]! > nearestSeed[farthest]!) farthest = i;
    const seed = points[farthest]!;
    seeds.push(seed);
    for (let i = 0; i < points.length; i++) nearestSeed[i] = Math.min(nearestSeed[i]!, planeDistance(points[i]!, seed));
  }
  return seeds;
}

/** Closest (point, centre) pairs first while the centre has room; capacities sum to the point count. */
function assignWithCapacity(points: Point[], centres: Point[], capacities: number[]): number[] {
  const pairs: { point: number; centre: number; distance: number }[] = [];
  points.forEach((p, point) => centres.forEach((c, centre) => pairs.push({ point, centre, distance: planeDistance(p, c) })));
  pairs.sort((a, b) => a.distance - b.distance || a.point - b.point || a.centre - b.centre);
  const assignment = points.map(() => -1);
  const load = centres.map(() => 0);
  for (const { point, centre } of pairs) {
    if (assignment[point] !== -1 || load[centre]! >= capacities[centre]!) continue;
    assignment[point] = centre;
    load[centre]!++;
  }
  return assignment;
}

/** Exchanges pairs of points between groups while that brings both closer to their centres in sum. */
function improveBySwaps(points: Point[], centres: Point[], assignment: number[]): number[] {
  const result = [...assignment];
  const cost = (point: number, group: number) => planeDistance(points[point]!, centres[group]!);
  for (let pass = 0, swapped = true; swapped && pass < points.length; pass++) {
    swapped = false;
    for (let i = 0; i < points.length; i++) {
      for (let j = i + 1; j < points.length; j++) {
        const gi = result[i]!;
        const gj = result[j]!;
        if (gi === gj) continue;
        // A small margin keeps floating-point noise from swapping back and forth.
        if (cost(i, gj) + cost(j, gi) < cost(i, gi) + cost(j, gj) - 1) {
          result[i] = gj;
          result[j] = gi;
          swapped = true;
        }
      }
    }
  }
  return result;
}

function centroids(points: Point[], assignment: number[], count: number): Point[] {
  const sums = Array.from({ length: count }, () => ({ x: 0, y: 0, n: 0 }));
  assignment.forEach((group, i) => {
    const sum = sums[group]!;
    sum.x += points[i]!.x;
    sum.y += points[i]!.y;
    sum.n++;
  });
  return sums.map((s) => ({ x: s.x / s.n, y: s.y / s.n }));
}

/** Splits the places into `count` groups of nearby places whose sizes differ by at most one. */
function groupByGeography<T extends { place: PlaceRow }>(items: T[], count: number): T[][] {
  const points = project(items.map((item) => item.place));
  const capacities = Array.from({ length: count }, (_, g) => Math.floor(items.length / count) + (g < items.length % count ? 1 : 0));
  const seeds = farthestFirstSeeds(points, count);
  let assignment = improveBySwaps(points, seeds, assignWithCapacity(points, seeds, capacities));
  for (let round = 0; round < CLUSTER_ROUNDS; round++) {
    const centres = centroids(points, assignment, count);
    const next = improveBySwaps(points, centres, assignWithCapacity(points, centres, capacities));
    if (next.every((group, i) => group === assignment[i])) break;
    assignment = next;
  }
  const groups = Array.from({ length: count }, (): T[] => []);
  assignment.forEach((group, i) => groups[group]!.push(items[i]!));
  return groups;
}

function centreOf(places: readonly Coordinates[]): Coordinates {
  return {
    latitude: places.reduce((sum, p) => sum + p.latitude, 0) / places.length,
    longitude: places.reduce((sum, p) => sum + p.longitude, 0) / places.length,
  };
}

/** Greedy nearest-neighbour walk from `start`; ties go to the earlier item. */
function nearestNeighbourWalk<T>(items: readonly T[], start: number, distance: (a: T, b: T) => number): T[] {
  const left = [...items];
  const walk = left.splice(start, 1);
  while (left.length > 0) {
    const last = walk[walk.length - 1]!;
    let nearest = 0;
    for (let i = 1; i < left.length; i++) if (distance(last, left[i]!) < distance(last, left[nearest]!)) nearest = i;
    walk.push(...left.splice(nearest, 1));
  }
  return walk;
}

/**
 * The `size` sights of a day's area worth visiting together: its most wanted sight, then again and
 * again the sight nearest the group so far, a higher theme score counting as being a little nearer.
 */
function compactCore(area: readonly RankedSight[], size: number): RankedSight[] {
  const left = [...area].sort((a, b) => a.rank - b.rank);
  const core = left.splice(0, 1);
  while (core.length < size && left.length > 0) {
    const centre = centreOf(core.map((s) => s.place));
    const cost = (s: RankedSight) => haversineMetres(centre, s.place) - s.score * METRES_PER_SCORE;
    let best = 0;
    for (let i = 1; i < left.length; i++) if (cost(left[i]!) < cost(left[best]!)) best = i;
    core.push(...left.splice(best, 1));
  }
  return core;
}

/** Days in travelling order: start with the westernmost group, then always the nearest next one. */
function orderDays<T extends { place: PlaceRow }>(groups: T[][]): T[][] {
  const centres = groups.map((group) => ({ group, centre: centreOf(group.map((item) => item.place)) }));
  let westernmost = 0;
  centres.forEach((c, i) => {
    if (c.centre.longitude < centres[westernmost]!.centre.longitude) westernmost = i;
  });
  return nearestNeighbourWalk(centres, westernmost, (a, b) => haversineMetres(a.centre, b.centre)).map((c) => c.group);
}

/** Meals per day (0–2): restaurants go one at a time to the day with the fewest stops so far. */
function mealQuotas(sightCounts: number[], restaurantCount: number): number[] {
  const quotas = sightCounts.map(() => 0);
  for (let left = Math.min(restaurantCount, MEALS_PER_DAY * sightCounts.length); left > 0; left--) {
    let best = -1;
    for (let day = 0; day < quotas.length; day++) {
      if (quotas[day]! >= MEALS_PER_DAY) continue;
      if (best === -1 || sightCounts[day]! + quotas[day]! < sightCounts[best]! + quotas[best]!) best = day;
    }
    quotas[best]!++;
  }
  return quotas;
}

// ---- one day -------------------------------------------------------------------------------------

function pathLength(places: readonly PlaceRow[]): number {
  let total = 0;
  for (let i = 1; i < places.length; i++) total += haversineMetres(places[i - 1]!, places[i]!);
  return total;
}

/** Nearest-neighbour order of the day's sights, from whichever first sight gives the shortest walk. */
function visitOrder(sights: readonly PlaceRow[]): PlaceRow[] {
  let best: PlaceRow[] = [];
  let bestLength = Infinity;
  for (let start = 0; start < sights.length; start++) {
    const walk = nearestNeighbourWalk(sights, start, haversineMetres);
    const length = pathLength(walk);
    if (length < bestLength) {
      best = walk;
      bestLength = length;
    }
  }
  return best;
}

/** How many sights come before lunch: the split whose morning ends nearest noon, leaving one for later. */
function morningSightCount(ordered: readonly PlaceRow[], mode: Transportation): number {
  if (ordered.length <= 1) return ordered.length;
  let clock = DAY_START;
  let best = 1;
  let bestGap = Infinity;
  for (let count = 1; count < ordered.length; count++) {
    const place = ordered[count - 1]!;
    if (count > 1) clock += travelBetween(ordered[count - 2]!, place, mode).minutes;
    clock += place.visitMinutes;
    // An early finish only means waiting for lunch; a late one means a hungry traveller.
    const gap = clock > LUNCH_TARGET ? (clock - LUNCH_TARGET) * 1.5 : LUNCH_TARGET - clock;
    if (gap < bestGap) {
      best = count;
      bestGap = gap;
    }
  }
  return best;
}

/** The free restaurant that costs the smallest detour between `from` and `to` (or nearest to `from`). */
function nearestRestaurant(restaurants: readonly PlaceRow[], taken: ReadonlySet<PlaceRow>, from: PlaceRow, to: PlaceRow | undefined): PlaceRow {
  let best: PlaceRow | undefined;
  let bestCost = Infinity;
  for (const restaurant of restaurants) {
    if (taken.has(restaurant)) continue;
    const cost = haversineMetres(from, restaurant) + (to ? haversineMetres(restaurant, to) : 0);
    if (cost < bestCost) {
      best = restaurant;
      bestCost = cost;
    }
  }
  // The meal quotas never exceed the free restaurants, so running out is a bug, not a user error.
  if (!best) throw new Error('offline planner: no free restaurant left for a planned meal');
  return best;
}

function clockCategory(start: number): TimeOfDay {
  return start < 12 * 60 ? 'MORNING' : start < 18 * 60 ? 'AFTERNOON' : 'EVENING';
}

function draftDay(sights: readonly PlaceRow[], mealCount: number, restaurants: readonly PlaceRow[], mode: Transportation): DayDraft {
  const ordered = visitOrder(sights);
  const visits: Visit[] = [];
  const taken = new Set<PlaceRow>();
  let clock = DAY_START;
  let phase: 'beforeLunch' | 'afterLunch' | 'afterDinner' = 'beforeLunch';
  const endIfNext = (place: PlaceRow) => {
    const last = visits[visits.length - 1];
    return clock + (last ? travelBetween(last.place, place, mode).minutes : 0) + place.visitMinutes;
  };
  const visit = (place: PlaceRow, meal: Visit['meal'], earliest: number) => {
    const last = visits[visits.length - 1];
    const travel = last ? travelBetween(last.place, place, mode) : null;
    const start = Math.max(earliest, clock + (travel?.minutes ?? 0));
    // Meal slots fix the time of day; sights take it from the meals around them, or from the clock.
    const category: TimeOfDay =
      meal === 'lunch' ? 'AFTERNOON'
      : meal === 'dinner' || phase === 'afterDinner' ? 'EVENING'
      : mealCount > 0 && phase === 'beforeLunch' ? 'MORNING'
      : mealCount > 1 ? 'AFTERNOON'
      : clockCategory(start);
    visits.push({ place, meal, category, start, travel });
    clock = start + place.visitMinutes;
  };

  let next = mealCount > 0 ? morningSightCount(ordered, mode) : ordered.length;
  ordered.slice(0, next).forEach((place) => visit(place, null, DAY_START));
  if (mealCount > 0) {
    const lunch = nearestRestaurant(restaurants, taken, visits[visits.length - 1]!.place, ordered[next]);
    taken.add(lunch);
    visit(lunch, 'lunch', LUNCH_FROM);
    phase = 'afterLunch';
  }
  if (mealCount > 1) {
    const firstAfternoon = next;
    while (next < ordered.length && (next === firstAfternoon || endIfNext(ordered[next]!) <= AFTERNOON_UNTIL)) visit(ordered[next++]!, null, DAY_START);
    const dinner = nearestRestaurant(restaurants, taken, visits[visits.length - 1]!.place, ordered[next]);
    taken.add(dinner);
    visit(dinner, 'dinner', DINNER_FROM);
    phase = 'afterDinner';
  }
  while (next < ordered.length) visit(ordered[next++]!, null, DAY_START);
  return { visits, end: clock };
}

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
function settleDay(group: RankedSight[], mealCount: number, restaurants: readonly PlaceRow[], spare: readonly RankedSight[], mode: Transportation) {
  let sights = [...group];
  const draftOf = (list: readonly RankedSight[]) => draftDay(list.map((s) => s.place), mealCount, restaurants, mode);
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

// ---- words ---------------------------------------------------------------------------------------

function clockText(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

function slotText(visit: Visit): string {
  if (visit.meal === 'lunch') return 'Lunch';
  if (visit.meal === 'dinner') return 'Dinner';
  return visit.category === 'MORNING' ? 'Morning' : visit.category === 'AFTERNOON' ? 'Afternoon' : 'Evening';
}

function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

function dayTitle(dayNumber: number, sights: readonly RankedSight[], visits: readonly Visit[]): string {
  // The two most wanted sights, named in the order they are visited.
  const highlights = new Set([...sights].sort((a, b) => a.rank - b.rank).slice(0, 2).map((s) => s.place));
  const names = visits.filter((v) => highlights.has(v.place)).map((v) => v.place.name);
  // "Donggung Palace and Wolji Pond and Cheomseongdae" would read as three places.
  const joiner = names.some((name) => / and /i.test(name)) ? ', ' : ' and ';
  return clip(names.length > 0 ? `Day ${dayNumber}: ${names.join(joiner)}` : `Day ${dayNumber}`, TITLE_MAX);
}

function dayDescription(title: string, date: string, visits: readonly Visit[], mode: Transportation): string {
  const lines = [`## ${title}`, '', `_${longDate(date)} · ${stopCountText(visits.length)}_`, ''];
  visits.forEach((visit, i) => {
    lines.push(`${i + 1}. ${clockText(visit.start)} · ${slotText(visit)}: ${placeLabel(visit.place)}. ${visit.place.description}`);
    const previous = visits[i - 1];
    if (previous && visit.travel) lines.push(`   - From ${previous.place.name}: ${travelText(visit.travel, mode)}.`);
  });
  lines.push(...travelTotalLine(visits.flatMap((v) => (v.travel ? [v.travel] : []))));
  return lines.join('\n');
}

// ---- the trip ------------------------------------------------------------------------------------

function planTrip(db: Db, request: PlanRequest): PlannedDay[] {
  const regionId = resolveRegion(request.region);
  if (regionId === null) throw new PlannerError(`We have no places for "${request.region}" yet. Available regions: ${knownRegionNames().join(', ')}.`);
  const regionName = regionDisplayName(regionId);
  const dayCount = request.duration;
  if (!Number.isInteger(dayCount) || dayCount < 1) throw new PlannerError('A trip lasts at least one day.');
  const catalogue = placesOfRegion(db, regionId);
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
  const quotas = mealQuotas(groups.map((g) => g.length), restaurants.length);
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

// ---- streaming -----------------------------------------------------------------------------------


export function createOfflinePlanner(deps: { db: Db; delayMs: number; chunkSize?: number }): Planner {
  const chunkSize = Math.max(1, Math.floor(deps.chunkSize ?? 40));
  return {
    name: 'offline',
    async *plan(request, signal) {
      if (signal.aborted) throw signal.reason;
      const days = planTrip(deps.db, request);
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
