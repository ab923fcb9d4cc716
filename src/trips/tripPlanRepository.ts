// Trip plans and their chat rooms. Every read is scoped to the owner: another member's plan is
// simply not found. Lists use keyset paging on (member, field, id) indexes: no OFFSET.
import { and, asc, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
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

function listQuery(db: Db, sort: TripSort, withCursor: boolean) {
  return prepared(db, `listOwnTripPlans:${sort.field}:${sort.direction}:${withCursor}`, () => {
    const column = sort.field === 'createdAt' ? tripPlans.createdAt : tripPlans.startDate;
    const order = sort.direction === 'asc' ? asc : desc;
    const after = withCursor
      ? sort.direction === 'asc'
        ? sql`(${column}, ${tripPlans.id}) > (${sql.placeholder('cursorValue')}, ${sql.placeholder('cursorId')})`
        : sql`(${column}, ${tripPlans.id}) < (${sql.placeholder('cursorValue')}, ${sql.placeholder('cursorId')})`
      : undefined;
    return db
      .select(withRoom)
      .from(tripPlans)
      .innerJoin(chatRooms, eq(chatRooms.tripPlanId, tripPlans.id))
      .where(and(eq(tripPlans.memberId, sql.placeholder('memberId')), after))
      .orderBy(order(column), order(tripPlans.id))
      .limit(sql.placeholder('limit'))
      .prepare();
  });
}

/** One page after `cursor` (a plan id of this member, already checked) in the given order; size + 1 rows. */
export function listOwnTripPlans(db: Db, memberId: number, sort: TripSort, size: number, cursor: TripPlanRow | null): TripPlanWithRoom[] {
  const params: Record<string, unknown> = { memberId, limit: size + 1 };
  if (cursor) {
    params.cursorValue = sort.field === 'createdAt' ? cursor.createdAt : cursor.startDate;
    params.cursorId = cursor.id;
  }
  return listQuery(db, sort, cursor !== null).all(params);
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
export function transitionStatus(db: Db, tripPlanId: number, from: GenerationStatus[], to: GenerationStatus, nowMs: number, failureCode: string | null = null): boolean {
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
