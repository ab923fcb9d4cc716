// Trip plans and their chat rooms. Every read is scoped to the owner: another member's plan is
// simply not found. Lists use keyset paging on (member, field, id) indexes: no OFFSET.
import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { prepared } from '../db/preparedStatements.js';
import { chatRooms, dailyPlans, tripPlans } from '../db/schema.js';

export type TripPlanRow = typeof tripPlans.$inferSelect;
export type TripPlanWithRoom = TripPlanRow & { chatRoomId: number };
export type GenerationStatus = 'PENDING' | 'GENERATING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';
export type TripSort = { field: 'createdAt' | 'startDate'; direction: 'asc' | 'desc' };

const withRoom = { ...getTableColumns(tripPlans), chatRoomId: chatRooms.id };

export function insertTripPlan(db: Db, values: typeof tripPlans.$inferInsert): TripPlanWithRoom {
  return db.transaction((tx) => {
    const plan = tx.insert(tripPlans).values(values).returning().get();
    const room = tx.insert(chatRooms).values({ memberId: plan.memberId, tripPlanId: plan.id, createdAt: plan.createdAt }).returning().get();
    return { ...plan, chatRoomId: room.id };
  });
}

export function findOwnTripPlan(db: Db, memberId: number, tripPlanId: number): TripPlanWithRoom | undefined {
  const query = prepared(db, 'findOwnTripPlan', () =>
    db
      .select(withRoom)
      .from(tripPlans)
      .innerJoin(chatRooms, eq(chatRooms.tripPlanId, tripPlans.id))
      .where(and(eq(tripPlans.id, sql.placeholder('tripPlanId')), eq(tripPlans.memberId, sql.placeholder('memberId'))))
      .prepare(),
  );
  return query.get({ tripPlanId, memberId });
}

export function findTripPlanById(db: Db, tripPlanId: number): TripPlanWithRoom | undefined {
  return db.select(withRoom).from(tripPlans).innerJoin(chatRooms, eq(chatRooms.tripPlanId, tripPlans.id)).where(eq(tripPlans.id, tripPlanId)).get();
}

// The list is the hottest query: it runs as a plain better-sqlite3 statement selecting only what a
// list item shows, because materialising columns (and drizzle's per-row mapping on top) cost more
// than the index search itself (profiled: 16 columns took 8x the time of the ids alone).
export type TripPlanListItem = Pick<TripPlanWithRoom, 'id' | 'memberId' | 'chatRoomId' | 'title' | 'startDate' | 'region' | 'imageUrl' | 'generationStatus'>;

const listColumns = `p.id, p.member_id AS memberId, r.id AS chatRoomId, p.title, p.start_date AS startDate, p.region,
  p.image_url AS imageUrl, p.generation_status AS generationStatus`;

/** The SQL of a list page (named parameters @memberId, @limit, and @cursorValue/@cursorId after a cursor). */
export function listOwnTripPlansSql(sort: TripSort, withCursor: boolean): string {
  const column = sort.field === 'createdAt' ? 'p.created_at' : 'p.start_date';
  const direction = sort.direction === 'asc' ? 'ASC' : 'DESC';
  const after = withCursor ? `AND (${column}, p.id) ${sort.direction === 'asc' ? '>' : '<'} (@cursorValue, @cursorId)` : '';
  return `SELECT ${listColumns} FROM trip_plan p JOIN chat_room r ON r.trip_plan_id = p.id
       WHERE p.member_id = @memberId ${after} ORDER BY ${column} ${direction}, p.id ${direction} LIMIT @limit`;
}

function listStatement(db: Db, sort: TripSort, withCursor: boolean) {
  return prepared(db, `listOwnTripPlans:${sort.field}:${sort.direction}:${withCursor}`, () =>
    db.$client.prepare<Record<string, unknown>, TripPlanListItem>(listOwnTripPlansSql(sort, withCursor)),
  );
}

export type ListCursor = Pick<TripPlanRow, 'id' | 'createdAt' | 'startDate'>;

/** The keyset position of one of the member's plans, for paging after it. */
export function findOwnListCursor(db: Db, memberId: number, tripPlanId: number): ListCursor | undefined {
  return prepared(db, 'findOwnListCursor', () =>
    db.$client.prepare<{ id: number; memberId: number }, ListCursor>(
      'SELECT id, created_at AS createdAt, start_date AS startDate FROM trip_plan WHERE id = @id AND member_id = @memberId',
    ),
  ).get({ id: tripPlanId, memberId });
}

/** One page after `cursor` (a plan id of this member, already checked) in the given order; size + 1 rows. */
export function listOwnTripPlans(db: Db, memberId: number, sort: TripSort, size: number, cursor: ListCursor | null): TripPlanListItem[] {
  const params: Record<string, unknown> = { memberId, limit: size + 1 };
  if (cursor) {
    params.cursorValue = sort.field === 'createdAt' ? cursor.createdAt : cursor.startDate;
    params.cursorId = cursor.id;
  }
  return listStatement(db, sort, cursor !== null).all(params);
}

export function findOwnTripPlanRow(db: Db, memberId: number, tripPlanId: number): TripPlanRow | undefined {
  const query = prepared(db, 'findOwnTripPlanRow', () =>
    db
      .select()
      .from(tripPlans)
      .where(and(eq(tripPlans.id, sql.placeholder('tripPlanId')), eq(tripPlans.memberId, sql.placeholder('memberId'))))
      .prepare(),
  );
  return query.get({ tripPlanId, memberId });
}

/** Moves the plan from one of `from` to `to`; false when it was not in any of them (a race lost). */
export function transitionStatus(
  db: Db,
  tripPlanId: number,
  from: GenerationStatus[],
  to: GenerationStatus,
  nowMs: number,
  failureCode: string | null = null,
): boolean {
  const result = db
    .update(tripPlans)
    .set({ generationStatus: to, updatedAt: nowMs, failureCode })
    .where(and(eq(tripPlans.id, tripPlanId), inArray(tripPlans.generationStatus, from)))
    .run();
  return result.changes === 1;
}

/** Start: drop the days of an earlier run and mark the plan GENERATING, atomically. */
export function beginGeneration(db: Db, tripPlanId: number, nowMs: number): boolean {
  return db.transaction((tx) => {
    const moved = tx
      .update(tripPlans)
      .set({ generationStatus: 'GENERATING', updatedAt: nowMs, failureCode: null })
      .where(and(eq(tripPlans.id, tripPlanId), inArray(tripPlans.generationStatus, ['PENDING', 'FAILED', 'CANCELLED'])))
      .run();
    if (moved.changes !== 1) return false;
    tx.delete(dailyPlans).where(eq(dailyPlans.tripPlanId, tripPlanId)).run();
    return true;
  });
}

export function updateTripPlanTitle(db: Db, tripPlanId: number, title: string, nowMs: number): void {
  db.update(tripPlans).set({ title, updatedAt: nowMs }).where(eq(tripPlans.id, tripPlanId)).run();
}

/** Deletes the plan; days, stops, chat room and messages go with it (ON DELETE CASCADE). */
export function deleteTripPlan(db: Db, tripPlanId: number): void {
  db.delete(tripPlans).where(eq(tripPlans.id, tripPlanId)).run();
}

export function markInterruptedGenerationsFailed(db: Db, nowMs: number): number[] {
  return db
    .update(tripPlans)
    .set({ generationStatus: 'FAILED', failureCode: 'AI002', updatedAt: nowMs })
    .where(eq(tripPlans.generationStatus, 'GENERATING'))
    .returning({ id: tripPlans.id })
    .all()
    .map((row) => row.id);
}
