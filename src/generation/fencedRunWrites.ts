// The two writes a run makes per day, the day with its stops and the day's chat summary, each fenced
// by the lease like fencedWrite (a runner that lost its lease writes nothing and learns it) but as
// engine-native statements of hand-written SQL (fencedRunWriteStatements.ts, one implementation per
// engine).
// Both are idempotent, so that a run may send one again when the storage failed to answer
// (storageRetry.ts) although it may have committed: the day is inserted unless its (plan, day
// number) row exists, and then it is read back as saved; the day is saved with summary_pending set,
// and the summary's insert is the statement that clears it, so a summary is stored once per day,
// and a resumed run knows which saved day still lacks its summary.
// Nothing is read back after an insert: the saved day is built from what was inserted, the returned
// ids and the place rows kept in memory (catalogue/placeCache.ts).
import { keptPlacesByIds } from '../catalogue/placeCache.js';
import type { DatabasePort } from '../db/databasePort.js';
import type { PlannedDay } from '../itinerary/plannedDay.js';
import type { Transportation } from '../itinerary/travel.js';
import { findDay, savedDayOf, type DayWithStops } from '../trips/dailyPlanRepository.js';
import type { Fenced, Lease } from './generationLeases.js';

/** The lease a write is fenced by, and the instant and lease length its renewal uses. */
export interface FenceAt {
  lease: Lease;
  nowMs: number;
  leaseMs: number;
}

/**
 * Saves a generated day with its stops, fenced by the lease; the day as saved, or held: false. A
 * day already saved (an earlier try committed but its answer was lost) is read back, not saved twice.
 */
export async function saveGeneratedDay(port: DatabasePort, at: FenceAt, day: PlannedDay, transportation: Transportation): Promise<Fenced<DayWithStops>> {
  const inserted = await insertGeneratedDay(port, at, day, transportation);
  if (!inserted.held || inserted.value) return inserted as Fenced<DayWithStops>;
  const saved = await findDay(port, at.lease.tripPlanId, day.dayNumber);
  if (!saved) throw new Error(`day ${day.dayNumber} of trip plan ${at.lease.tripPlanId} was neither inserted nor found`);
  return { held: true, value: saved };
}

/** The day as inserted; null when a row of that day number was there already. */
async function insertGeneratedDay(port: DatabasePort, at: FenceAt, day: PlannedDay, transportation: Transportation): Promise<Fenced<DayWithStops | null>> {
  const places = await keptPlacesByIds(
    port,
    day.stops.map((s) => s.placeId),
  );
  const inserted = await port.statements.fencedRunWrites.insertDay(port, at, day, transportation);
  if (!inserted.held || inserted.value === null) return inserted as Fenced<null>;
  const { dayId, stopIds } = inserted.value;
  return { held: true, value: savedDayOf(at.lease.tripPlanId, dayId, day, transportation, stopIds, places, { summaryPending: true }) };
}

export interface DaySummary {
  chatRoomId: number;
  dayNumber: number;
  content: string;
  createdAt: number;
}

/**
 * Stores a saved day's chat summary as the assistant's message, fenced by the lease, and marks the
 * day's summary stored in the same statement; the message's id, null when the day's summary was
 * stored already (an earlier try committed), or held: false.
 */
export function saveDaySummary(port: DatabasePort, at: FenceAt, summary: DaySummary): Promise<Fenced<{ id: number } | null>> {
  return port.statements.fencedRunWrites.insertDaySummary(port, at, summary);
}
