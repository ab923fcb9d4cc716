// The itinerary: days of a plan, each with its stops and their places.
import { and, asc, eq, inArray, notInArray } from 'drizzle-orm';
import type { PlaceRow } from '../catalogue/placeRepository.js';
import type { DatabasePort, PgQueries } from '../db/databasePort.js';
import type { dailyPlans, scheduledPlaces } from '../db/schema.pg.js';
import type { ResequencedStop } from '../itinerary/dayEdits.js';
import type { PlannedDay } from '../itinerary/plannedDay.js';
import type { Transportation } from '../itinerary/travel.js';

export type DailyPlanRow = typeof dailyPlans.$inferSelect;
export type ScheduledPlaceRow = typeof scheduledPlaces.$inferSelect;
export type StopWithPlace = ScheduledPlaceRow & { place: PlaceRow };
export type DayWithStops = DailyPlanRow & { stops: StopWithPlace[] };

async function stopsOf(db: DatabasePort, q: PgQueries, dayIds: number[]): Promise<Map<number, StopWithPlace[]>> {
  const { scheduledPlaces, places } = db.t;
  const byDay = new Map<number, StopWithPlace[]>(dayIds.map((id) => [id, []]));
  if (dayIds.length === 0) return byDay;
  const rows = await q
    .select({ stop: scheduledPlaces, place: places })
    .from(scheduledPlaces)
    .innerJoin(places, eq(places.id, scheduledPlaces.placeId))
    .where(inArray(scheduledPlaces.dailyPlanId, dayIds))
    .orderBy(asc(scheduledPlaces.dailyPlanId), asc(scheduledPlaces.visitOrder));
  for (const { stop, place } of rows) byDay.get(stop.dailyPlanId)!.push({ ...stop, place });
  return byDay;
}

export function listDays(db: DatabasePort, tripPlanId: number): Promise<DayWithStops[]> {
  const { dailyPlans } = db.t;
  return db.run(async (q) => {
    const days = await q.select().from(dailyPlans).where(eq(dailyPlans.tripPlanId, tripPlanId)).orderBy(asc(dailyPlans.dayNumber));
    const stops = await stopsOf(
      db,
      q,
      days.map((d) => d.id),
    );
    return days.map((day) => ({ ...day, stops: stops.get(day.id) ?? [] }));
  });
}

/** findDay on a transaction the caller holds. */
export async function findDayWith(db: DatabasePort, q: PgQueries, tripPlanId: number, dayNumber: number): Promise<DayWithStops | undefined> {
  const { dailyPlans } = db.t;
  const [day] = await q
    .select()
    .from(dailyPlans)
    .where(and(eq(dailyPlans.tripPlanId, tripPlanId), eq(dailyPlans.dayNumber, dayNumber)));
  if (!day) return undefined;
  return { ...day, stops: (await stopsOf(db, q, [day.id])).get(day.id) ?? [] };
}

export function findDay(db: DatabasePort, tripPlanId: number, dayNumber: number): Promise<DayWithStops | undefined> {
  return db.run((q) => findDayWith(db, q, tripPlanId, dayNumber));
}

/** Saves one generated day in its own transaction (a crash later keeps it); stops in visit order. */
export function insertDay(db: DatabasePort, tripPlanId: number, day: PlannedDay, transportation: Transportation): Promise<DayWithStops> {
  return db.tx((q) => insertDayWith(db, q, tripPlanId, day, transportation));
}

/**
 * A day as saved, built from what was inserted and the ids the inserts returned (reading the day
 * back cost 17.8% of the generation CPU, measured in the performance work). `stopIds` maps each
 * visit order to its row id; `places` holds the stops' place rows.
 */
export function savedDayOf(
  tripPlanId: number,
  dayId: number,
  day: PlannedDay,
  transportation: Transportation,
  stopIds: ReadonlyMap<number, number>,
  places: ReadonlyMap<number, PlaceRow>,
  { summaryPending }: Pick<DailyPlanRow, 'summaryPending'> = { summaryPending: false },
): DayWithStops {
  const stops = day.stops.map((stop, i): StopWithPlace => {
    const visitOrder = i + 1;
    const id = stopIds.get(visitOrder);
    const place = places.get(stop.placeId);
    if (id === undefined || !place) throw new Error(`stop ${visitOrder} of day ${dayId} was not saved`);
    const { placeId, category, travelTime, travelDistance } = stop;
    return { id, dailyPlanId: dayId, visitOrder, category, travelTime, travelDistance, transportation, placeId, place };
  });
  const { dayNumber, date, title, description } = day;
  return { id: dayId, tripPlanId, dayNumber, date, title, description, summaryPending, stops };
}

/** insertDay's statements on a transaction the caller holds (the generation runs use fencedRunWrites.ts). */
export async function insertDayWith(
  db: DatabasePort,
  q: PgQueries,
  tripPlanId: number,
  day: PlannedDay,
  transportation: Transportation,
): Promise<DayWithStops> {
  const { dailyPlans, scheduledPlaces, places } = db.t;
  const [row] = await q
    .insert(dailyPlans)
    .values({ tripPlanId, dayNumber: day.dayNumber, date: day.date, title: day.title, description: day.description })
    .returning({ id: dailyPlans.id });
  const dayId = row!.id;
  const stopIds = new Map<number, number>();
  if (day.stops.length > 0) {
    const rows = await q
      .insert(scheduledPlaces)
      .values(day.stops.map((stop, i) => ({ ...stop, visitOrder: i + 1, transportation, dailyPlanId: dayId })))
      .returning({ id: scheduledPlaces.id, visitOrder: scheduledPlaces.visitOrder });
    for (const { id, visitOrder } of rows) stopIds.set(visitOrder, id);
  }
  const placeIds = day.stops.map((s) => s.placeId);
  const placeRows = placeIds.length === 0 ? [] : await q.select().from(places).where(inArray(places.id, placeIds));
  return savedDayOf(tripPlanId, dayId, day, transportation, stopIds, new Map(placeRows.map((p) => [p.id, p])));
}

function changes(before: StopWithPlace | undefined, after: ResequencedStop): boolean {
  return (
    !before ||
    before.visitOrder !== after.visitOrder ||
    before.placeId !== after.placeId ||
    before.travelTime !== after.travelTime ||
    before.travelDistance !== after.travelDistance
  );
}

/**
 * Rewrites a day's stops in place and its description with them, on a transaction the caller holds
 * with the plan row locked (trips/savedDayEdits.ts), so `day` is the day as saved and nobody else
 * writes it meanwhile: each listed stop gets its new visit order, place and travel; stops of the
 * day that are not listed are deleted; `describe` writes the description of the day as saved.
 * Only the stops that change are written, in ascending id order. A stop whose visit order changes
 * is first parked at minus its id (no other stop holds that), so no step of the renumbering meets
 * the (day, visit order) unique index, whatever the new order is.
 */
export async function rewriteDayWith(
  db: DatabasePort,
  q: PgQueries,
  day: DayWithStops,
  stops: ResequencedStop[],
  describe: (edited: DayWithStops) => string,
): Promise<DayWithStops> {
  const { scheduledPlaces, dailyPlans } = db.t;
  const keep = stops.map((s) => s.id);
  await q.delete(scheduledPlaces).where(and(eq(scheduledPlaces.dailyPlanId, day.id), keep.length > 0 ? notInArray(scheduledPlaces.id, keep) : undefined));
  const before = new Map(day.stops.map((s) => [s.id, s]));
  const changed = stops.filter((stop) => changes(before.get(stop.id), stop)).sort((a, b) => a.id - b.id);
  const ofThisDay = (id: number) => and(eq(scheduledPlaces.id, id), eq(scheduledPlaces.dailyPlanId, day.id));
  for (const stop of changed.filter((s) => before.get(s.id)?.visitOrder !== s.visitOrder)) {
    await q.update(scheduledPlaces).set({ visitOrder: -stop.id }).where(ofThisDay(stop.id));
  }
  for (const stop of changed) {
    await q
      .update(scheduledPlaces)
      .set({ visitOrder: stop.visitOrder, placeId: stop.placeId, travelTime: stop.travelTime, travelDistance: stop.travelDistance })
      .where(ofThisDay(stop.id));
  }
  const edited = (await findDayWith(db, q, day.tripPlanId, day.dayNumber))!;
  const description = describe(edited);
  await q.update(dailyPlans).set({ description }).where(eq(dailyPlans.id, edited.id));
  return { ...edited, description };
}

/** Ids of the places already used anywhere in the plan (a trip never repeats a place), on the caller's transaction. */
export async function placeIdsOfPlanWith(db: DatabasePort, q: PgQueries, tripPlanId: number): Promise<Set<number>> {
  const { scheduledPlaces, dailyPlans } = db.t;
  const rows = await q
    .select({ placeId: scheduledPlaces.placeId })
    .from(scheduledPlaces)
    .innerJoin(dailyPlans, eq(dailyPlans.id, scheduledPlaces.dailyPlanId))
    .where(eq(dailyPlans.tripPlanId, tripPlanId));
  return new Set(rows.map((r) => r.placeId));
}
