// The itinerary: days of a plan, each with its stops and their places.
import { and, asc, eq, inArray, notInArray } from 'drizzle-orm';
import type { PlaceRow } from '../catalogue/placeRepository.js';
import type { Db } from '../db/database.js';
import { dailyPlans, places, scheduledPlaces } from '../db/schema.js';
import type { ResequencedStop } from '../itinerary/dayEdits.js';
import type { PlannedDay } from '../itinerary/plannedDay.js';
import type { Transportation } from '../itinerary/travel.js';

export type DailyPlanRow = typeof dailyPlans.$inferSelect;
export type ScheduledPlaceRow = typeof scheduledPlaces.$inferSelect;
export type StopWithPlace = ScheduledPlaceRow & { place: PlaceRow };
export type DayWithStops = DailyPlanRow & { stops: StopWithPlace[] };

function stopsOf(db: Db, dayIds: number[]): Map<number, StopWithPlace[]> {
  const byDay = new Map<number, StopWithPlace[]>(dayIds.map((id) => [id, []]));
  if (dayIds.length === 0) return byDay;
  const rows = db
    .select({ stop: scheduledPlaces, place: places })
    .from(scheduledPlaces)
    .innerJoin(places, eq(places.id, scheduledPlaces.placeId))
    .where(inArray(scheduledPlaces.dailyPlanId, dayIds))
    .orderBy(asc(scheduledPlaces.dailyPlanId), asc(scheduledPlaces.visitOrder))
    .all();
  for (const { stop, place } of rows) byDay.get(stop.dailyPlanId)!.push({ ...stop, place });
  return byDay;
}

export function listDays(db: Db, tripPlanId: number): DayWithStops[] {
  const days = db.select().from(dailyPlans).where(eq(dailyPlans.tripPlanId, tripPlanId)).orderBy(asc(dailyPlans.dayNumber)).all();
  const stops = stopsOf(
    db,
    days.map((d) => d.id),
  );
  return days.map((day) => ({ ...day, stops: stops.get(day.id) ?? [] }));
}

export function findDay(db: Db, tripPlanId: number, dayNumber: number): DayWithStops | undefined {
  const day = db
    .select()
    .from(dailyPlans)
    .where(and(eq(dailyPlans.tripPlanId, tripPlanId), eq(dailyPlans.dayNumber, dayNumber)))
    .get();
  if (!day) return undefined;
  return { ...day, stops: stopsOf(db, [day.id]).get(day.id) ?? [] };
}

/** Saves one generated day in its own transaction (a crash later keeps it); stops in visit order. */
export function insertDay(db: Db, tripPlanId: number, day: PlannedDay, transportation: Transportation): DayWithStops {
  const id = db.transaction((tx) => {
    const row = tx
      .insert(dailyPlans)
      .values({ tripPlanId, dayNumber: day.dayNumber, date: day.date, title: day.title, description: day.description })
      .returning({ id: dailyPlans.id })
      .get();
    if (day.stops.length > 0) {
      tx.insert(scheduledPlaces)
        .values(day.stops.map((stop, i) => ({ ...stop, visitOrder: i + 1, transportation, dailyPlanId: row.id })))
        .run();
    }
    return row.id;
  });
  return (
    findDay(db, tripPlanId, day.dayNumber) ??
    (() => {
      throw new Error(`day ${id} vanished`);
    })()
  );
}

/**
 * Rewrites a day's stops in place: each listed stop gets its new visit order, place and travel;
 * stops of the day that are not listed are deleted. Visit orders only move down (a removal) or stay,
 * so renumbering in ascending order never collides with the (day, visit order) unique index.
 */
export function rewriteStops(db: Db, dailyPlanId: number, stops: ResequencedStop[]): void {
  db.transaction((tx) => {
    const keep = stops.map((s) => s.id);
    tx.delete(scheduledPlaces)
      .where(and(eq(scheduledPlaces.dailyPlanId, dailyPlanId), keep.length > 0 ? notInArray(scheduledPlaces.id, keep) : undefined))
      .run();
    for (const stop of [...stops].sort((a, b) => a.visitOrder - b.visitOrder)) {
      tx.update(scheduledPlaces)
        .set({ visitOrder: stop.visitOrder, placeId: stop.placeId, travelTime: stop.travelTime, travelDistance: stop.travelDistance })
        .where(and(eq(scheduledPlaces.id, stop.id), eq(scheduledPlaces.dailyPlanId, dailyPlanId)))
        .run();
    }
  });
}

export function updateDayDescription(db: Db, dailyPlanId: number, description: string): void {
  db.update(dailyPlans).set({ description }).where(eq(dailyPlans.id, dailyPlanId)).run();
}

/** Ids of the places already used anywhere in the plan (a trip never repeats a place). */
export function placeIdsOfPlan(db: Db, tripPlanId: number): Set<number> {
  const rows = db
    .select({ placeId: scheduledPlaces.placeId })
    .from(scheduledPlaces)
    .innerJoin(dailyPlans, eq(dailyPlans.id, scheduledPlaces.dailyPlanId))
    .where(eq(dailyPlans.tripPlanId, tripPlanId))
    .all();
  return new Set(rows.map((r) => r.placeId));
}
