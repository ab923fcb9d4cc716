// A run's per-day writes on SQLite (fencedRunWriteStatements.ts): the renewal, the day and its stops
// (one multi-row INSERT) in one BEGIN IMMEDIATE transaction of better-sqlite3 statements prepared
// once per connection.
import type { Db } from '../db/database.js';
import type { DatabasePort, PgQueries } from '../db/databasePort.js';
import { prepared } from '../db/preparedStatements.js';
import type { FenceAt } from './fencedRunWrites.js';
import type { FencedRunWriteStatements } from './fencedRunWriteStatements.js';
import { fenceConditionText, type Fenced, type FenceParameter } from './generationLeases.js';

const renewal = `UPDATE trip_plan SET gen_lease_until = @leaseUntil, gen_heartbeat_at = @nowMs
  WHERE ${fenceConditionText((name) => `@${name}`)} RETURNING id`;
const insertDay = `INSERT INTO daily_plan (trip_plan_id, day_number, date, title, description, summary_pending)
  VALUES (@tripPlanId, @dayNumber, @date, @title, @description, 1) ON CONFLICT (trip_plan_id, day_number) DO NOTHING RETURNING id`;
const insertStops = (count: number) =>
  `INSERT INTO scheduled_place (daily_plan_id, visit_order, category, travel_time, travel_distance, transportation, place_id)
  VALUES ${Array.from({ length: count }, () => '(?, ?, ?, ?, ?, ?, ?)').join(', ')} RETURNING id, visit_order AS visitOrder`;
const summaryStored = `UPDATE daily_plan SET summary_pending = 0
  WHERE trip_plan_id = @tripPlanId AND day_number = @dayNumber AND summary_pending RETURNING id`;
const insertSummary = `INSERT INTO chat_message (chat_room_id, message_type, content, content_type, created_at)
  VALUES (@chatRoomId, 'ASSISTANT', @content, 'TEXT', @createdAt) RETURNING id`;

function fenceParameters({ lease, nowMs, leaseMs }: FenceAt): Record<FenceParameter | 'leaseUntil', unknown> {
  return { tripPlanId: lease.tripPlanId, run: lease.run, attempt: lease.attempt, owner: lease.owner, nowMs, leaseUntil: nowMs + leaseMs };
}

// Through the port's own tx() (its mutex, the query error count of metrics), on the raw connection
// under the handle it gives: the SQLite drizzle instance (databasePort.ts).
const sqliteClient = (q: PgQueries) => (q as unknown as Db).$client;

/** The renewal in a transaction, then `write` only when it held. */
function fenced<T>(port: DatabasePort, at: FenceAt, write: (client: Db['$client']) => T): Promise<Fenced<T>> {
  return port.tx((q): Promise<Fenced<T>> => {
    const client = sqliteClient(q);
    const renewed = prepared(client, 'fence:renewal', () => client.prepare(renewal));
    if (renewed.all(fenceParameters(at)).length !== 1) return Promise.resolve({ held: false });
    return Promise.resolve({ held: true, value: write(client) });
  });
}

export const sqliteFencedRunWrites: FencedRunWriteStatements = {
  insertDay: (port, at, day, transportation) =>
    fenced(port, at, (client) => {
      const dayStatement = prepared(client, 'saveGeneratedDay:day', () => client.prepare(insertDay));
      const [row] = dayStatement.all({
        tripPlanId: at.lease.tripPlanId,
        dayNumber: day.dayNumber,
        date: day.date,
        title: day.title,
        description: day.description,
      }) as { id: number }[];
      if (!row) return null;
      const dayId = row.id;
      const stopIds = new Map<number, number>();
      if (day.stops.length > 0) {
        const count = day.stops.length;
        const stopsStatement = prepared(client, `saveGeneratedDay:stops:${count}`, () => client.prepare(insertStops(count)));
        const values = day.stops.flatMap((s, i) => [dayId, i + 1, s.category, s.travelTime, s.travelDistance, transportation, s.placeId]);
        for (const { id, visitOrder } of stopsStatement.all(values) as { id: number; visitOrder: number }[]) stopIds.set(visitOrder, id);
      }
      return { dayId, stopIds };
    }),

  insertDaySummary: (port, at, summary) =>
    fenced(port, at, (client) => {
      const stored = prepared(client, 'saveDaySummary:stored', () => client.prepare(summaryStored));
      if (stored.all({ tripPlanId: at.lease.tripPlanId, dayNumber: summary.dayNumber }).length !== 1) return null;
      const insert = prepared(client, 'saveDaySummary:message', () => client.prepare(insertSummary));
      const { chatRoomId, content, createdAt } = summary;
      return (insert.all({ chatRoomId, content, createdAt }) as { id: number }[])[0]!;
    }),
};
