// What a run writes, as statements for fencedWrite (generationLeases.ts): a day with its stops (the
// unique (plan, day number) index refuses a second copy of a day), and a day's chat summary.
import { sql } from 'drizzle-orm';
import type { Statements } from '../db/plainStatements.js';
import type { PlannedDay } from '../itinerary/plannedDay.js';
import type { Transportation } from '../itinerary/travel.js';

/** Saves the day and its stops in visit order; returns the day's id. */
export async function insertPlannedDay(s: Statements, tripPlanId: number, day: PlannedDay, transportation: Transportation): Promise<number> {
  const [row] = await s.rows<{ id: number }>(sql`
    INSERT INTO daily_plan (trip_plan_id, day_number, date, title, description)
    VALUES (${tripPlanId}, ${day.dayNumber}, ${day.date}, ${day.title}, ${day.description}) RETURNING id`);
  const dailyPlanId = row!.id;
  if (day.stops.length > 0) {
    const values = day.stops.map(
      (stop, i) => sql`(${dailyPlanId}, ${i + 1}, ${stop.category}, ${stop.travelTime}, ${stop.travelDistance}, ${transportation}, ${stop.placeId})`,
    );
    await s.run(sql`
      INSERT INTO scheduled_place (daily_plan_id, visit_order, category, travel_time, travel_distance, transportation, place_id)
      VALUES ${sql.join(values, sql`, `)}`);
  }
  return dailyPlanId;
}

/** The day's summary as the assistant's chat message. */
export async function insertSummaryMessage(s: Statements, chatRoomId: number, content: string, createdAt: number): Promise<void> {
  await s.run(sql`
    INSERT INTO chat_message (chat_room_id, message_type, content, content_type, created_at)
    VALUES (${chatRoomId}, 'ASSISTANT', ${content}, 'TEXT', ${createdAt})`);
}
