// A DayEdit applied to a saved day, for the HTTP swap and the chat agent alike, in one transaction
// that takes the plan row first (tripPlanRepository.ts, holdPlanForEdit) and only then reads the
// plan, the day and the places the plan uses, picks a replacement from the plan's region, and saves
// the new sequence with travel and the day's description recomputed (itinerary/dayEdits.ts). Two
// edits of one plan, on one instance or on two, therefore run one after the other, the second
// reading what the first saved: no acknowledged edit is overwritten, no place is picked twice, and
// since every writer of the days takes the plan row first, they never deadlock. The sentence that
// announces the edit names the stops as this transaction read them.
import { resolveRegion } from '../catalogue/placeCatalogue.js';
import { placesOfRegionWith, type PlaceRow } from '../catalogue/placeRepository.js';
import type { DatabasePort, PgQueries } from '../db/databasePort.js';
import { AppError } from '../kernel/appError.js';
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
import { findDayWith, placeIdsOfPlanWith, rewriteDayWith, type DayWithStops } from './dailyPlanRepository.js';
import { holdPlanForEdit, type PlanHeldForEdit } from './tripPlanRepository.js';

export interface AppliedDayEdit {
  /** the day as saved after the edit */
  day: DayWithStops;
  /** the sentence that announces the edit */
  summary: string;
}

/** More statements for the edit's transaction, run after the day is saved (the chat's answer, chats/chatTurns.ts). */
export type AlongWithEdit = (q: PgQueries, applied: AppliedDayEdit) => Promise<void>;

function indexOf(day: DayWithStops, visitOrder: number): number {
  const index = stopIndex(day.stops, visitOrder);
  if (index < 0) throw new AppError('TRIP104', `Day ${day.dayNumber} has no stop at visit order ${visitOrder}.`);
  return index;
}

/** The region's place nearest the one it replaces, among those the plan does not use yet. */
async function replacementFor(db: DatabasePort, q: PgQueries, tripPlanId: number, plan: PlanHeldForEdit, current: PlaceRow): Promise<PlaceRow> {
  const regionId = resolveRegion(plan.region);
  const used = await placeIdsOfPlanWith(db, q, tripPlanId);
  const free = (regionId ? await placesOfRegionWith(db, q, regionId) : []).filter((p) => !used.has(p.id));
  const replacement = pickReplacement(current, free, plan.themes);
  if (!replacement)
    throw new AppError('TRIP104', `There is no other ${current.kind === 'RESTAURANT' ? 'restaurant' : 'place'} left to suggest in ${plan.region}.`);
  return replacement;
}

function saveSequence(db: DatabasePort, q: PgQueries, day: DayWithStops, sequence: EditedSequence<PlaceRow>): Promise<DayWithStops> {
  const transportation = (day.stops[0]?.transportation ?? 'PUBLIC_TRANSIT') as Transportation;
  // The planner's text described the old order; describe the day as it is now.
  return rewriteDayWith(db, q, day, resequence(sequence, transportation), (edited) => editedDayMarkdown(edited.title, edited.date, edited.stops));
}

/**
 * Applies `edit` to the plan's saved day and runs `along` in the same transaction; nothing is saved
 * when either throws. TRIP101 when the plan does not exist (any more), TRIP106 while it is
 * GENERATING (checked holding the row, so an edit never meets a generation that has started),
 * TRIP103 when the day does not exist, TRIP104 when a stop does not.
 */
export function applyDayEdit(db: DatabasePort, tripPlanId: number, edit: DayEdit, along?: AlongWithEdit): Promise<AppliedDayEdit> {
  return db.tx(async (q) => {
    const plan = await holdPlanForEdit(db, q, tripPlanId);
    if (!plan) throw new AppError('TRIP101');
    if (plan.generationStatus === 'GENERATING') throw new AppError('TRIP106', 'The itinerary is being generated; edit it once it is complete.');
    const day = await findDayWith(db, q, tripPlanId, edit.dayNumber);
    if (!day) throw new AppError('TRIP103', `Day ${edit.dayNumber} of this trip plan does not exist.`);
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
        replacement = await replacementFor(db, q, tripPlanId, plan, day.stops[index]!.place);
        sequence = replaceStop(day.stops, index, replacement);
        break;
      }
    }
    const applied = { day: await saveSequence(db, q, day, sequence), summary: editSummary(edit, day.stops, replacement) };
    await along?.(q, applied);
    return applied;
  });
}
