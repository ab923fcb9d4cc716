// One plan with its chat room, as getTripPlan shows it: a hand-written statement per engine
// (tripPlanDetailStatements.sqlite.ts, .postgres.ts) selecting the 13 columns the detail shows, rows
// as arrays, for the same reason as the list page (tripPlanList.ts): drizzle's full row (21
// columns, mapped by name) cost more than the lookup. Scoped to the owner: another member's plan is
// not found.
import type { TripPlanWithRoom } from './tripPlanRepository.js';

/** What the detail shows of a plan. */
export type TripPlanDetailItem = Pick<
  TripPlanWithRoom,
  | 'id'
  | 'chatRoomId'
  | 'title'
  | 'region'
  | 'startDate'
  | 'endDate'
  | 'duration'
  | 'peopleCount'
  | 'themes'
  | 'transportation'
  | 'generationStatus'
  | 'imageUrl'
  | 'createdAt'
>;

/** A row of tripPlanDetailSql, in its order; `themes` as the engine gives it (JSON text on SQLite, parsed jsonb on PostgreSQL). */
export type DetailRow<Themes> = [
  id: number,
  chatRoomId: number,
  title: string,
  region: string,
  startDate: string,
  endDate: string,
  duration: number,
  peopleCount: number,
  themes: Themes,
  transportation: string,
  generationStatus: string,
  imageUrl: string | null,
  createdAt: number,
];

/** The SQL of the detail, its two parameters written by the engine's statement. */
export const tripPlanDetailSql = (tripPlanId: string, memberId: string) =>
  `SELECT p.id, r.id, p.title, p.region, p.start_date, p.end_date, p.duration, p.people_count, p.themes, p.transportation,
     p.generation_status, p.image_url, p.created_at FROM trip_plan p JOIN chat_room r ON r.trip_plan_id = p.id WHERE p.id = ${tripPlanId} AND p.member_id = ${memberId}`;

/** The detail of a row whose themes the engine's statement has read (`themes`: parsed from SQLite's text, or PostgreSQL's jsonb as given). */
export function toDetailItem(row: DetailRow<unknown>, themes: string[]): TripPlanDetailItem {
  const [id, chatRoomId, title, region, startDate, endDate, duration, peopleCount, , transportation, generationStatus, imageUrl, createdAt] = row;
  return { id, chatRoomId, title, region, startDate, endDate, duration, peopleCount, themes, transportation, generationStatus, imageUrl, createdAt };
}
