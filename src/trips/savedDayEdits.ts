// A DayEdit applied to a saved day, for the HTTP swap and the chat agent alike: the day is loaded,
// its visit orders checked, a replacement picked from the plan's region, and the new sequence saved
// in one transaction with travel and the day's description recomputed (itinerary/dayEdits.ts).
import { resolveRegion } from '../catalogue/placeCatalogue.js';
import { placesOfRegion, type PlaceRow } from '../catalogue/placeRepository.js';
import type { DatabasePort } from '../db/databasePort.js';
import { AppError } from '../http/appError.js';
import { editedDayMarkdown } from '../itinerary/dayMarkdown.js';
import {
  editSummary,
  pickReplacement,
  removeStop,
  replaceStop,
  resequence,
  stopIndex,
  swapStops,
  type DayEdit,
  type EditedSequence,
} from '../itinerary/dayEdits.js';
import type { Transportation } from '../itinerary/travel.js';
import { findDay, placeIdsOfPlan, rewriteDay, type DayWithStops } from './dailyPlanRepository.js';

export interface AppliedDayEdit {
  /** the day as saved after the edit */
  day: DayWithStops;
  /** the sentence that announces the edit */
  summary: string;
}

export async function loadDay(db: DatabasePort, tripPlanId: number, dayNumber: number): Promise<DayWithStops> {
  const day = await findDay(db, tripPlanId, dayNumber);
  if (!day) throw new AppError('TRIP103', `Day ${dayNumber} of this trip plan does not exist.`);
  return day;
}

function indexOf(day: DayWithStops, visitOrder: number): number {
  const index = stopIndex(day.stops, visitOrder);
  if (index < 0) throw new AppError('TRIP104', `Day ${day.dayNumber} has no stop at visit order ${visitOrder}.`);
  return index;
}

/** The region's place nearest the one it replaces, among those the plan does not use yet. */
async function replacementFor(db: DatabasePort, plan: { id: number; region: string; themes: string[] }, current: PlaceRow): Promise<PlaceRow> {
  const regionId = resolveRegion(plan.region);
  const used = await placeIdsOfPlan(db, plan.id);
  const free = (regionId ? await placesOfRegion(db, regionId) : []).filter((p) => !used.has(p.id));
  const replacement = pickReplacement(current, free, plan.themes);
  if (!replacement)
    throw new AppError('TRIP104', `There is no other ${current.kind === 'RESTAURANT' ? 'restaurant' : 'place'} left to suggest in ${plan.region}.`);
  return replacement;
}

function saveSequence(db: DatabasePort, day: DayWithStops, sequence: EditedSequence<PlaceRow>): Promise<DayWithStops> {
  const transportation = (day.stops[0]?.transportation ?? 'PUBLIC_TRANSIT') as Transportation;
  // The planner's text described the old order; describe the day as it is now.
  return rewriteDay(db, day, resequence(sequence, transportation), (edited) => editedDayMarkdown(edited.title, edited.date, edited.stops));
}

/** Applies `edit` to the plan's saved day; TRIP103 when the day does not exist, TRIP104 when a stop does not. */
export async function applyDayEdit(db: DatabasePort, plan: { id: number; region: string; themes: string[] }, edit: DayEdit): Promise<AppliedDayEdit> {
  const day = await loadDay(db, plan.id, edit.dayNumber);
  let sequence: EditedSequence<PlaceRow>;
  let replacement: PlaceRow | undefined;
  switch (edit.kind) {
    case 'swap':
      sequence = swapStops(day.stops, indexOf(day, edit.visitOrderA), indexOf(day, edit.visitOrderB));
      break;
    case 'remove':
      sequence = removeStop(day.stops, indexOf(day, edit.visitOrder));
      break;
    case 'replace': {
      const index = indexOf(day, edit.visitOrder);
      replacement = await replacementFor(db, plan, day.stops[index]!.place);
      sequence = replaceStop(day.stops, index, replacement);
      break;
    }
  }
  const summary = editSummary(edit, day.stops, replacement);
  return { day: await saveSequence(db, day, sequence), summary };
}
