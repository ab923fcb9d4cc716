// Edits of a saved day (swap, remove, replace a stop), shared by the HTTP swap and the chat agent.
// Every edit recomputes the day's travel times and distances from the new sequence of places.
import { AppError } from '../http/appError.js';
import type { Db } from '../db/database.js';
import { travelBetween, type Transportation } from '../itinerary/travel.js';
import { findDay, rewriteStops, updateDayDescription, type DayWithStops, type PlaceRow } from './dailyPlanRepository.js';
import { editedDayMarkdown } from '../itinerary/dayMarkdown.js';

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

type Stop = DayWithStops['stops'][number];

/**
 * Saves the day as `stops` (existing stops, in their new order) holding `places`: stops keep their
 * ids and time-of-day slots, visit orders are renumbered from 1, dropped stops are deleted, travel is
 * recomputed. Keeping ids lets a client that holds a scheduledPlaceId keep using it.
 */
function saveSequence(db: Db, day: DayWithStops, stops: Stop[], places: PlaceRow[]): DayWithStops {
  const transportation = (day.stops[0]?.transportation ?? 'PUBLIC_TRANSIT') as Transportation;
  return db.transaction(() => {
    rewriteStops(
      db,
      day.id,
      stops.map((stop, i) => {
        const travel = i > 0 ? travelBetween(places[i - 1]!, places[i]!, transportation) : null;
        return { id: stop.id, visitOrder: i + 1, placeId: places[i]!.id, travelTime: travel?.minutes ?? null, travelDistance: travel?.distanceMetres ?? null };
      }),
    );
    const edited = findDay(db, day.tripPlanId, day.dayNumber)!;
    // The planner's text described the old order; describe the day as it is now.
    const description = editedDayMarkdown(edited.title, edited.date, edited.stops);
    updateDayDescription(db, edited.id, description);
    return { ...edited, description };
  });
}

/** Exchanges the places of two stops; the stops keep their positions, ids and slots. */
export function swapStops(db: Db, day: DayWithStops, visitOrderA: number, visitOrderB: number): DayWithStops {
  const a = stopIndex(day, visitOrderA);
  const b = stopIndex(day, visitOrderB);
  const places = day.stops.map((s) => s.place);
  [places[a], places[b]] = [places[b]!, places[a]!];
  return saveSequence(db, day, day.stops, places);
}

export function removeStop(db: Db, day: DayWithStops, visitOrder: number): DayWithStops {
  const index = stopIndex(day, visitOrder);
  const keep = day.stops.filter((_, i) => i !== index);
  return saveSequence(db, day, keep, keep.map((s) => s.place));
}

export function replaceStop(db: Db, day: DayWithStops, visitOrder: number, replacement: PlaceRow): DayWithStops {
  const index = stopIndex(day, visitOrder);
  const places = day.stops.map((s) => s.place);
  places[index] = replacement;
  return saveSequence(db, day, day.stops, places);
}

export function describeStop(day: DayWithStops, visitOrder: number): string {
  return day.stops[stopIndex(day, visitOrder)]!.place.name;
}
