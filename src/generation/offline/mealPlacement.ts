// Step 3 of the offline planner, part one: a day's timeline from 09:00 with lunch and dinner at the
// nearest free restaurants: how many meals each day gets, how many sights come before lunch, and
// when each visit starts.
import type { PlaceRow } from '../../catalogue/placeRepository.js';
import type { TimeOfDay } from '../../itinerary/place.js';
import { haversineMetres, travelBetween, type Transportation } from '../../itinerary/travel.js';
import { visitOrder } from './routeOrder.js';

const MEALS_PER_DAY = 2;
const DAY_START = 9 * 60;
const LUNCH_FROM = 11 * 60 + 30;
const LUNCH_TARGET = 12 * 60;
const DINNER_FROM = 17 * 60 + 30;
/** sights after lunch that would end later than this wait until after dinner */
const AFTERNOON_UNTIL = 18 * 60 + 30;

export interface Visit {
  place: PlaceRow;
  meal: 'lunch' | 'dinner' | null;
  category: TimeOfDay;
  /** minutes after midnight */
  start: number;
  travel: { distanceMetres: number; minutes: number } | null;
}

export interface DayDraft {
  visits: Visit[];
  end: number;
}

/** Meals per day (0–2): restaurants go one at a time to the day with the fewest stops so far. */
export function mealQuotas(sightCounts: number[], restaurantCount: number): number[] {
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

export function draftDay(sights: readonly PlaceRow[], mealCount: number, restaurants: readonly PlaceRow[], mode: Transportation): DayDraft {
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
      meal === 'lunch'
        ? 'AFTERNOON'
        : meal === 'dinner' || phase === 'afterDinner'
          ? 'EVENING'
          : mealCount > 0 && phase === 'beforeLunch'
            ? 'MORNING'
            : mealCount > 1
              ? 'AFTERNOON'
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
