// Edits of a saved day (swap, remove, replace a stop), shared by the HTTP swap and the chat agent.
// Every edit recomputes the day's travel times and distances from the new sequence of places.
import { AppError } from '../http/appError.js';
import type { Db } from '../db/database.js';
import { travelBetween, type Transportation } from '../generation/travel.js';
import { findDay, replaceStops, updateDayDescription, type DayWithStops, type PlaceRow } from './dailyPlanRepository.js';
import { editedDayMarkdown } from './dayMarkdown.js';

function stopIndex(day: DayWithStops, visitOrder: number): number {
  const index = day.stops.findIndex((s) => s.visitOrder === visitOrder);
  if (index < 0) throw new AppError('TRIP104', `Day ${day.dayNumber} has no stop at visit order ${visitOrder}.`);
  return index;
}

export function loadDay(db: Db, tripPlanId: number, dayNumber: number): DayWithStops {
  const day = findDay(db, tripPlanId, dayNumber);
  if (!day) throw new AppError('TRIP103', `Day ${dayNumber} of this trip plan does not exist.`);
  return day;
}

/** Saves `places` as the day's stops in this order, keeping each position's category. */
function saveSequence(db: Db, day: DayWithStops, places: PlaceRow[], categories: DayWithStops['stops'][number]['category'][]): DayWithStops {
  const transportation = (day.stops[0]?.transportation ?? 'PUBLIC_TRANSIT') as Transportation;
  return db.transaction(() => {
    replaceStops(
      db,
      day.id,
      places.map((place, i) => {
        const travel = i > 0 ? travelBetween(places[i - 1]!, place, transportation) : null;
        return { visitOrder: i + 1, category: categories[i]!, placeId: place.id, transportation, travelTime: travel?.minutes ?? null, travelDistance: travel?.distanceMetres ?? null };
      }),
    );
    const edited = findDay(db, day.tripPlanId, day.dayNumber)!;
    // The planner's text described the old order; describe the day as it is now.
    const description = editedDayMarkdown(edited.title, edited.date, edited.stops);
    updateDayDescription(db, edited.id, description);
    return { ...edited, description };
  });
}

export function swapStops(db: Db, day: DayWithStops, visitOrderA: number, visitOrderB: number): DayWithStops {
  const a = stopIndex(day, visitOrderA);
  const b = stopIndex(day, visitOrderB);
  const places = day.stops.map((s) => s.place);
  [places[a], places[b]] = [places[b]!, places[a]!];
  return saveSequence(db, day, places, day.stops.map((s) => s.category));
}

export function removeStop(db: Db, day: DayWithStops, visitOrder: number): DayWithStops {
  const index = stopIndex(day, visitOrder);
  const keep = day.stops.filter((_, i) => i !== index);
  return saveSequence(db, day, keep.map((s) => s.place), keep.map((s) => s.category));
}

export function replaceStop(db: Db, day: DayWithStops, visitOrder: number, replacement: PlaceRow): DayWithStops {
  const index = stopIndex(day, visitOrder);
  const places = day.stops.map((s) => s.place);
  places[index] = replacement;
  return saveSequence(db, day, places, day.stops.map((s) => s.category));
}

export function describeStop(day: DayWithStops, visitOrder: number): string {
  return day.stops[stopIndex(day, visitOrder)]!.place.name;
}
