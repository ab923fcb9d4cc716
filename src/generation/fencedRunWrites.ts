// The two writes a run makes per day, the day with its stops and the day's chat summary, each fenced
// by the lease like fencedWrite (a runner that lost its lease writes nothing and learns it) but as
// prepared statements of hand-written SQL: through drizzle's builder they were the generation's
// largest cost (drizzle 39.5% of its CPU, insertDay 36%).
// Both are idempotent, so that a run may send one again when the storage failed to answer
// (storageRetry.ts) although it may have committed: the day is inserted unless its (plan, day
// number) row exists, and then it is read back as saved; the day is saved with summary_pending set,
// and the summary's insert is the statement that clears it, so a summary is stored once per day,
// and a resumed run knows which saved day still lacks its summary.
// - PostgreSQL: one statement, so one round trip, per write: the fence (the lease renewal, which
//   locks the plan row until the statement commits, so a cancel waits for the write) and the inserts
//   as data-modifying CTEs that insert only when the fence returned the plan row. The stops come as
//   arrays (unnest), so the text and its named prepared statement are the same for any day.
// - SQLite: the renewal, the day and its stops (one multi-row INSERT) in one BEGIN IMMEDIATE
//   transaction of better-sqlite3 statements prepared once per connection.
// Nothing is read back: the saved day is built from what was inserted, the returned ids and the
// place rows kept in memory (catalogue/placeCache.ts).
import { keptPlacesByIds } from '../catalogue/placeCache.js';
import type { Db } from '../db/database.js';
import type { DatabasePort, PgQueries } from '../db/databasePort.js';
import type { PgDb } from '../db/postgresDatabase.js';
import { prepared } from '../db/preparedStatements.js';
import type { PlannedDay } from '../itinerary/plannedDay.js';
import type { Transportation } from '../itinerary/travel.js';
import { findDay, savedDayOf, type DayWithStops } from '../trips/dailyPlanRepository.js';
import { fenceConditionText, type Fenced, type FenceParameter, type Lease } from './generationLeases.js';

/** The lease a write is fenced by, and the instant and lease length its renewal uses. */
export interface FenceAt {
  lease: Lease;
  nowMs: number;
  leaseMs: number;
}

const pgFence: Record<FenceParameter | 'leaseUntil', string> = { tripPlanId: '$1', run: '$2', attempt: '$3', owner: '$4', nowMs: '$5', leaseUntil: '$6' };

// The renewal of generationLeases.ts (renewal()) as a CTE; its row is the fence.
const pgFenceCte = `fence AS (
  UPDATE trip_plan SET gen_lease_until = ${pgFence.leaseUntil}, gen_heartbeat_at = ${pgFence.nowMs}
  WHERE ${fenceConditionText((name) => pgFence[name])} RETURNING id)`;

const pgSaveDay = `WITH ${pgFenceCte},
day AS (
  INSERT INTO daily_plan (trip_plan_id, day_number, date, title, description, summary_pending)
  SELECT id, $7::integer, $8::text, $9::text, $10::text, TRUE FROM fence
  ON CONFLICT (trip_plan_id, day_number) DO NOTHING RETURNING id),
stop AS (
  INSERT INTO scheduled_place (daily_plan_id, visit_order, category, travel_time, travel_distance, transportation, place_id)
  SELECT day.id, s.visit_order, s.category, s.travel_time, s.travel_distance, $11::text, s.place_id
  FROM day CROSS JOIN unnest($12::integer[], $13::text[], $14::integer[], $15::integer[], $16::bigint[])
    AS s(visit_order, category, travel_time, travel_distance, place_id)
  RETURNING id, visit_order)
SELECT EXISTS (SELECT 1 FROM fence) AS "held", (SELECT id FROM day) AS "dayId",
  COALESCE((SELECT json_agg(json_build_array(stop.visit_order, stop.id)) FROM stop), '[]'::json) AS "stops"`;

const pgSaveDaySummary = `WITH ${pgFenceCte},
day AS (
  UPDATE daily_plan SET summary_pending = FALSE FROM fence
  WHERE daily_plan.trip_plan_id = fence.id AND daily_plan.day_number = $7::integer AND daily_plan.summary_pending RETURNING daily_plan.id),
message AS (
  INSERT INTO chat_message (chat_room_id, message_type, content, content_type, created_at)
  SELECT $8::bigint, 'ASSISTANT', $9::text, 'TEXT', $10::bigint FROM day RETURNING id)
SELECT EXISTS (SELECT 1 FROM fence) AS "held", (SELECT id FROM message) AS "id"`;

const sqliteRenewal = `UPDATE trip_plan SET gen_lease_until = @leaseUntil, gen_heartbeat_at = @nowMs
  WHERE ${fenceConditionText((name) => `@${name}`)} RETURNING id`;
const sqliteInsertDay = `INSERT INTO daily_plan (trip_plan_id, day_number, date, title, description, summary_pending)
  VALUES (@tripPlanId, @dayNumber, @date, @title, @description, 1) ON CONFLICT (trip_plan_id, day_number) DO NOTHING RETURNING id`;
const sqliteInsertStops = (count: number) =>
  `INSERT INTO scheduled_place (daily_plan_id, visit_order, category, travel_time, travel_distance, transportation, place_id)
  VALUES ${Array.from({ length: count }, () => '(?, ?, ?, ?, ?, ?, ?)').join(', ')} RETURNING id, visit_order AS visitOrder`;
const sqliteSummaryStored = `UPDATE daily_plan SET summary_pending = 0
  WHERE trip_plan_id = @tripPlanId AND day_number = @dayNumber AND summary_pending RETURNING id`;
const sqliteInsertSummary = `INSERT INTO chat_message (chat_room_id, message_type, content, content_type, created_at)
  VALUES (@chatRoomId, 'ASSISTANT', @content, 'TEXT', @createdAt) RETURNING id`;

function fenceValues({ lease, nowMs, leaseMs }: FenceAt): unknown[] {
  return [lease.tripPlanId, lease.run, lease.attempt, lease.owner, nowMs, nowMs + leaseMs];
}

function fenceParameters({ lease, nowMs, leaseMs }: FenceAt): Record<FenceParameter | 'leaseUntil', unknown> {
  return { tripPlanId: lease.tripPlanId, run: lease.run, attempt: lease.attempt, owner: lease.owner, nowMs, leaseUntil: nowMs + leaseMs };
}

// Through the port's own tx()/run() (its mutex on SQLite, the query error count of metrics), on the
// raw connection under the handle it gives: on SQLite the handle is the SQLite drizzle instance
// (databasePort.ts), on PostgreSQL run() gives the pool's.
const sqliteClient = (q: PgQueries) => (q as unknown as Db).$client;
const pgPool = (q: PgQueries) => (q as unknown as PgDb).$client;

/** On SQLite: the renewal in a transaction, then `write` only when it held. */
function sqliteFenced<T>(port: DatabasePort, at: FenceAt, write: (client: Db['$client']) => T): Promise<Fenced<T>> {
  return port.tx((q): Promise<Fenced<T>> => {
    const client = sqliteClient(q);
    const renewal = prepared(client, 'fence:renewal', () => client.prepare(sqliteRenewal));
    if (renewal.all(fenceParameters(at)).length !== 1) return Promise.resolve({ held: false });
    return Promise.resolve({ held: true, value: write(client) });
  });
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
  const tripPlanId = at.lease.tripPlanId;
  const places = await keptPlacesByIds(
    port,
    day.stops.map((s) => s.placeId),
  );
  if (port.dialect === 'sqlite') {
    return sqliteFenced(port, at, (client) => {
      const insertDay = prepared(client, 'saveGeneratedDay:day', () => client.prepare(sqliteInsertDay));
      const [row] = insertDay.all({ tripPlanId, dayNumber: day.dayNumber, date: day.date, title: day.title, description: day.description }) as { id: number }[];
      if (!row) return null;
      const dayId = row.id;
      const stopIds = new Map<number, number>();
      if (day.stops.length > 0) {
        const count = day.stops.length;
        const insertStops = prepared(client, `saveGeneratedDay:stops:${count}`, () => client.prepare(sqliteInsertStops(count)));
        const values = day.stops.flatMap((s, i) => [dayId, i + 1, s.category, s.travelTime, s.travelDistance, transportation, s.placeId]);
        for (const { id, visitOrder } of insertStops.all(values) as { id: number; visitOrder: number }[]) stopIds.set(visitOrder, id);
      }
      return savedDayOf(tripPlanId, dayId, day, transportation, stopIds, places, { summaryPending: true });
    });
  }
  const { stops } = day;
  const result = await port.run((q) =>
    pgPool(q).query<{ held: boolean; dayId: number | null; stops: [number, number][] }>({
      name: 'saveGeneratedDay',
      text: pgSaveDay,
      values: [
        ...fenceValues(at),
        day.dayNumber,
        day.date,
        day.title,
        day.description,
        transportation,
        stops.map((_, i) => i + 1),
        stops.map((s) => s.category),
        stops.map((s) => s.travelTime),
        stops.map((s) => s.travelDistance),
        stops.map((s) => s.placeId),
      ],
    }),
  );
  const [row] = result.rows;
  if (!row?.held) return { held: false };
  if (row.dayId === null) return { held: true, value: null };
  return { held: true, value: savedDayOf(tripPlanId, row.dayId, day, transportation, new Map(row.stops), places, { summaryPending: true }) };
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
export async function saveDaySummary(port: DatabasePort, at: FenceAt, summary: DaySummary): Promise<Fenced<{ id: number } | null>> {
  if (port.dialect === 'sqlite') {
    return sqliteFenced(port, at, (client) => {
      const stored = prepared(client, 'saveDaySummary:stored', () => client.prepare(sqliteSummaryStored));
      if (stored.all({ tripPlanId: at.lease.tripPlanId, dayNumber: summary.dayNumber }).length !== 1) return null;
      const insert = prepared(client, 'saveDaySummary:message', () => client.prepare(sqliteInsertSummary));
      const { chatRoomId, content, createdAt } = summary;
      return (insert.all({ chatRoomId, content, createdAt }) as { id: number }[])[0]!;
    });
  }
  const result = await port.run((q) =>
    pgPool(q).query<{ held: boolean; id: number | null }>({
      name: 'saveDaySummary',
      text: pgSaveDaySummary,
      values: [...fenceValues(at), summary.dayNumber, summary.chatRoomId, summary.content, summary.createdAt],
    }),
  );
  const [row] = result.rows;
  if (!row?.held) return { held: false };
  return { held: true, value: row.id === null ? null : { id: row.id } };
}
