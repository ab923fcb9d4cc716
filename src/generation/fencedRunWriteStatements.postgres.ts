// A run's per-day writes on PostgreSQL (fencedRunWriteStatements.ts): one statement, so one round
// trip, per write: the fence (the lease renewal, which locks the plan row until the statement
// commits, so a cancel waits for the write) and the inserts as data-modifying CTEs that insert only
// when the fence returned the plan row. The stops come as arrays (unnest), so the text and its named
// prepared statement are the same for any day.
import type { PgQueries } from '../db/databasePort.js';
import type { PgDb } from '../db/postgresDatabase.js';
import type { FenceAt } from './fencedRunWrites.js';
import type { FencedRunWriteStatements } from './fencedRunWriteStatements.js';
import { fenceConditionText, type FenceParameter } from './generationLeases.js';

const fence: Record<FenceParameter | 'leaseUntil', string> = { tripPlanId: '$1', run: '$2', attempt: '$3', owner: '$4', nowMs: '$5', leaseUntil: '$6' };

// The renewal of generationLeases.ts (renewal()) as a CTE; its row is the fence.
const fenceCte = `fence AS (
  UPDATE trip_plan SET gen_lease_until = ${fence.leaseUntil}, gen_heartbeat_at = ${fence.nowMs}
  WHERE ${fenceConditionText((name) => fence[name])} RETURNING id)`;

const saveDay = `WITH ${fenceCte},
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

const saveDaySummary = `WITH ${fenceCte},
day AS (
  UPDATE daily_plan SET summary_pending = FALSE FROM fence
  WHERE daily_plan.trip_plan_id = fence.id AND daily_plan.day_number = $7::integer AND daily_plan.summary_pending RETURNING daily_plan.id),
message AS (
  INSERT INTO chat_message (chat_room_id, message_type, content, content_type, created_at)
  SELECT $8::bigint, 'ASSISTANT', $9::text, 'TEXT', $10::bigint FROM day RETURNING id)
SELECT EXISTS (SELECT 1 FROM fence) AS "held", (SELECT id FROM message) AS "id"`;

function fenceValues({ lease, nowMs, leaseMs }: FenceAt): unknown[] {
  return [lease.tripPlanId, lease.run, lease.attempt, lease.owner, nowMs, nowMs + leaseMs];
}

// Through the port's own run() (the query error count of metrics), on the pool under the handle it gives.
const pgPool = (q: PgQueries) => (q as unknown as PgDb).$client;

export const postgresFencedRunWrites: FencedRunWriteStatements = {
  async insertDay(port, at, day, transportation) {
    const { stops } = day;
    const result = await port.run((q) =>
      pgPool(q).query<{ held: boolean; dayId: number | null; stops: [number, number][] }>({
        name: 'saveGeneratedDay',
        text: saveDay,
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
    return { held: true, value: { dayId: row.dayId, stopIds: new Map(row.stops) } };
  },

  async insertDaySummary(port, at, summary) {
    const result = await port.run((q) =>
      pgPool(q).query<{ held: boolean; id: number | null }>({
        name: 'saveDaySummary',
        text: saveDaySummary,
        values: [...fenceValues(at), summary.dayNumber, summary.chatRoomId, summary.content, summary.createdAt],
      }),
    );
    const [row] = result.rows;
    if (!row?.held) return { held: false };
    return { held: true, value: row.id === null ? null : { id: row.id } };
  },
};
