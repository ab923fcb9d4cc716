// Edits of a saved day — swap two stops, remove one, replace one — whoever asks for them (the HTTP
// swap, the chat agent). Pure: given the day's stops they return its new sequence and the sentence
// that announces the edit; trips/savedDayEdits.ts loads the day and saves the result. Stops keep
// their ids and time-of-day slots, so a client that holds a scheduledPlaceId can keep using it;
// visit orders are renumbered from 1 and travel is recomputed between the new neighbours.
import type { Place, Stop } from './place.js';
import { haversineMetres, travelBetween, type Transportation } from './travel.js';

export type DayEdit =
  | { kind: 'swap'; dayNumber: number; visitOrderA: number; visitOrderB: number }
  | { kind: 'remove'; dayNumber: number; visitOrder: number }
  | { kind: 'replace'; dayNumber: number; visitOrder: number };

/** The stops that remain, in their new order, and the place each one holds. */
export interface EditedSequence<P extends Place = Place> {
  stops: Stop<P>[];
  places: P[];
}

/** A stop of the edited day as it is saved. */
export interface ResequencedStop {
  id: number;
  visitOrder: number;
  placeId: number;
  travelTime: number | null;
  travelDistance: number | null;
}

/** The index of the stop at `visitOrder`, or -1. */
export function stopIndex(stops: readonly Stop[], visitOrder: number): number {
  return stops.findIndex((s) => s.visitOrder === visitOrder);
}

/** Exchanges the places of two stops (by index); the stops keep their positions, ids and slots. */
export function swapStops<P extends Place>(stops: readonly Stop<P>[], a: number, b: number): EditedSequence<P> {
  const places = stops.map((s) => s.place);
  [places[a], places[b]] = [places[b]!, places[a]!];
  return { stops: [...stops], places };
}

export function removeStop<P extends Place>(stops: readonly Stop<P>[], index: number): EditedSequence<P> {
  const keep = stops.filter((_, i) => i !== index);
  return { stops: keep, places: keep.map((s) => s.place) };
}

export function replaceStop<P extends Place>(stops: readonly Stop<P>[], index: number, replacement: P): EditedSequence<P> {
  const places = stops.map((s) => s.place);
  places[index] = replacement;
  return { stops: [...stops], places };
}

/** The saved form of a sequence: visit orders from 1, travel from each place to the next. */
export function resequence(sequence: EditedSequence, transportation: Transportation): ResequencedStop[] {
  const { stops, places } = sequence;
  return stops.map((stop, i) => {
    const travel = i > 0 ? travelBetween(places[i - 1]!, places[i]!, transportation) : null;
    return { id: stop.id, visitOrder: i + 1, placeId: places[i]!.id, travelTime: travel?.minutes ?? null, travelDistance: travel?.distanceMetres ?? null };
  });
}

/**
 * What to put in place of `current`: among `free` places of the same kind, the nearest, a place that
 * shares one of the trip's themes counting as 3 km nearer; ties go to the lower id.
 */
export function pickReplacement<P extends Place>(current: Place, free: readonly P[], themes: readonly string[]): P | undefined {
  const wanted = new Set(themes);
  const candidates = free.filter((p) => p.kind === current.kind);
  if (candidates.length === 0) return undefined;
  const score = (p: P) => haversineMetres(current, p) - (p.themes.some((t) => wanted.has(t)) ? 3000 : 0);
  return candidates.reduce((best, p) => (score(p) < score(best) || (score(p) === score(best) && p.id < best.id) ? p : best));
}

/** The sentence that announces an edit, naming the stops as they were before it. */
export function editSummary(edit: DayEdit, before: readonly Stop[], replacement?: Place): string {
  const name = (visitOrder: number) => before[stopIndex(before, visitOrder)]!.place.name;
  switch (edit.kind) {
    case 'swap':
      return `Swapped stop ${edit.visitOrderA} (${name(edit.visitOrderA)}) and stop ${edit.visitOrderB} (${name(edit.visitOrderB)}) on day ${edit.dayNumber}.`;
    case 'remove':
      return `Removed stop ${edit.visitOrder} (${name(edit.visitOrder)}) from day ${edit.dayNumber}.`;
    case 'replace':
      return `Replaced stop ${edit.visitOrder} (${name(edit.visitOrder)}) on day ${edit.dayNumber} with ${replacement!.name}: ${replacement!.description}`;
  }
}
