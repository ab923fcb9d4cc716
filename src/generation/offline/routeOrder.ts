// The order of travel, nearest neighbour first: the days of a trip (from the westernmost area) and
// the sights of a day (from whichever sight gives the shortest walk).
import type { PlaceRow } from '../../catalogue/placeRepository.js';
import { haversineMetres } from '../../itinerary/travel.js';
import { centreOf } from './geographicGrouping.js';

/** Greedy nearest-neighbour walk from `start`; ties go to the earlier item. */
export function nearestNeighbourWalk<T>(items: readonly T[], start: number, distance: (a: T, b: T) => number): T[] {
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

function pathLength(places: readonly PlaceRow[]): number {
  let total = 0;
  for (let i = 1; i < places.length; i++) total += haversineMetres(places[i - 1]!, places[i]!);
  return total;
}

/** Nearest-neighbour order of the day's sights, from whichever first sight gives the shortest walk. */
export function visitOrder(sights: readonly PlaceRow[]): PlaceRow[] {
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

/** Days in travelling order: start with the westernmost group, then always the nearest next one. */
export function orderDays<T extends { place: PlaceRow }>(groups: T[][]): T[][] {
  const centres = groups.map((group) => ({ group, centre: centreOf(group.map((item) => item.place)) }));
  let westernmost = 0;
  centres.forEach((c, i) => {
    if (c.centre.longitude < centres[westernmost]!.centre.longitude) westernmost = i;
  });
  return nearestNeighbourWalk(centres, westernmost, (a, b) => haversineMetres(a.centre, b.centre)).map((c) => c.group);
}
