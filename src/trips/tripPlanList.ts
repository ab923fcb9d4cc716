// The list page, the hottest query: a hand-written statement per engine selecting only what a list
// item shows, because materialising every column (and drizzle's per-row mapping on top) cost more
// than the index search itself (profiled on SQLite: 16 columns took 8x the time of the ids alone).
// One SQL text, here, serves both engines' statements (tripPlanListStatements.sqlite.ts and
// .postgres.ts); only the parameter syntax differs (@name for better-sqlite3, $n for node-postgres).
// The aliases are quoted so PostgreSQL keeps their case. Rows come back as arrays (better-sqlite3's
// raw mode, node-postgres' rowMode 'array') and are made into objects here: the drivers set each
// column of a row object by name, which cost a third of the query's time.
import type { tripPlans } from '../db/schema.pg.js';

type TripPlanRow = typeof tripPlans.$inferSelect;
export type TripSort = { field: 'createdAt' | 'startDate'; direction: 'asc' | 'desc' };
export type TripPlanListItem = Pick<TripPlanRow, 'id' | 'memberId' | 'title' | 'startDate' | 'region' | 'imageUrl' | 'generationStatus'> & {
  chatRoomId: number;
};
export type ListCursor = Pick<TripPlanRow, 'id' | 'createdAt' | 'startDate'>;

const listColumns = `p.id, p.member_id AS "memberId", r.id AS "chatRoomId", p.title, p.start_date AS "startDate", p.region,
  p.image_url AS "imageUrl", p.generation_status AS "generationStatus"`;

/** A row of listColumns, in their order. */
export type ListRow = [number, number, number, string, string, string, string | null, string];

export function toListItems(rows: ListRow[]): TripPlanListItem[] {
  return rows.map(([id, memberId, chatRoomId, title, startDate, region, imageUrl, generationStatus]) => ({
    id,
    memberId,
    chatRoomId,
    title,
    startDate,
    region,
    imageUrl,
    generationStatus,
  }));
}

export type ListParameter = 'memberId' | 'limit' | 'cursorValue' | 'cursorId';
const sqliteParameter = (name: ListParameter) => `@${name}`;

/** The SQL of a list page, its parameters written by `parameter`. */
export function listOwnTripPlansSql(sort: TripSort, withCursor: boolean, parameter: (name: ListParameter) => string = sqliteParameter): string {
  const column = sort.field === 'createdAt' ? 'p.created_at' : 'p.start_date';
  const direction = sort.direction === 'asc' ? 'ASC' : 'DESC';
  const after = withCursor ? `AND (${column}, p.id) ${sort.direction === 'asc' ? '>' : '<'} (${parameter('cursorValue')}, ${parameter('cursorId')})` : '';
  return `SELECT ${listColumns} FROM trip_plan p JOIN chat_room r ON r.trip_plan_id = p.id
       WHERE p.member_id = ${parameter('memberId')} ${after} ORDER BY ${column} ${direction}, p.id ${direction} LIMIT ${parameter('limit')}`;
}

/** The name of a list page's statement: one per order and with or without a cursor. */
export function listPageKey(sort: TripSort, withCursor: boolean): string {
  return `listOwnTripPlans:${sort.field}:${sort.direction}:${withCursor}`;
}

/** The cursor's value in the sorted column. */
export function cursorValueOf(sort: TripSort, cursor: ListCursor): number | string {
  return sort.field === 'createdAt' ? cursor.createdAt : cursor.startDate;
}
