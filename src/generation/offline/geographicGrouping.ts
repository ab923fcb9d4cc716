// Step 2 of the offline planner: the fitting sights cut into one area per day (k-means with equal
// group sizes, seeded farthest-first, refined by pairwise swaps), and in each area the sights worth
// visiting together (its best one and those closest to it).
import type { PlaceRow } from '../../catalogue/placeRepository.js';
import { haversineMetres, type Coordinates } from '../../itinerary/travel.js';
import type { RankedSight } from './sightRanking.js';

const CLUSTER_ROUNDS = 50;
/** how far a day's core will reach for one more point of theme score */
const METRES_PER_SCORE = 2000;

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
export function groupByGeography<T extends { place: PlaceRow }>(items: T[], count: number): T[][] {
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

export function centreOf(places: readonly Coordinates[]): Coordinates {
  return {
    latitude: places.reduce((sum, p) => sum + p.latitude, 0) / places.length,
    longitude: places.reduce((sum, p) => sum + p.longitude, 0) / places.length,
  };
}

/**
 * The `size` sights of a day's area worth visiting together: its most wanted sight, then again and
 * again the sight nearest the group so far, a higher theme score counting as being a little nearer.
 */
export function compactCore(area: readonly RankedSight[], size: number): RankedSight[] {
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
