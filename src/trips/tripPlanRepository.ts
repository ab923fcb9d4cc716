// Trip plans and their chat rooms. Every read is scoped to the owner: another member's plan is
// simply not found. Lists use keyset paging on (member, field, id) indexes: no OFFSET.
import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { DatabasePort, PgQueries } from '../db/databasePort.js';
import { prepared } from '../db/preparedStatements.js';
import type { tripPlans } from '../db/schema.pg.js';
import type { ListCursor, TripPlanListItem, TripSort } from './tripPlanList.js';

export type { ListCursor, TripPlanListItem, TripSort };
export type TripPlanRow = typeof tripPlans.$inferSelect;
export type TripPlanWithRoom = TripPlanRow & { chatRoomId: number };
export type GenerationStatus = 'PENDING' | 'GENERATING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';

function withRoom(db: DatabasePort) {
  return { ...getTableColumns(db.t.tripPlans), chatRoomId: db.t.chatRooms.id };
}

export function insertTripPlan(db: DatabasePort, values: typeof tripPlans.$inferInsert): Promise<TripPlanWithRoom> {
  const { tripPlans, chatRooms } = db.t;
  return db.tx(async (q) => {
    const [plan] = await q.insert(tripPlans).values(values).returning();
    const [room] = await q
      .insert(chatRooms)
      .values({ memberId: plan!.memberId, tripPlanId: plan!.id, createdAt: plan!.createdAt })
      .returning({ id: chatRooms.id });
    return { ...plan!, chatRoomId: room!.id };
  });
}

function findOwnTripPlanQuery(db: DatabasePort, q: PgQueries) {
  const { tripPlans, chatRooms } = db.t;
  return prepared(q, 'findOwnTripPlan', () =>
    q
      .select(withRoom(db))
      .from(tripPlans)
      .innerJoin(chatRooms, eq(chatRooms.tripPlanId, tripPlans.id))
      .where(and(eq(tripPlans.id, sql.placeholder('tripPlanId')), eq(tripPlans.memberId, sql.placeholder('memberId'))))
      .prepare('findOwnTripPlan'),
  );
}

export function findOwnTripPlan(db: DatabasePort, memberId: number, tripPlanId: number): Promise<TripPlanWithRoom | undefined> {
  return db.run(async (q) => (await findOwnTripPlanQuery(db, q).execute({ tripPlanId, memberId }))[0]);
}

export function findTripPlanById(db: DatabasePort, tripPlanId: number): Promise<TripPlanWithRoom | undefined> {
  const { tripPlans, chatRooms } = db.t;
  return db.run(
    async (q) =>
      (await q.select(withRoom(db)).from(tripPlans).innerJoin(chatRooms, eq(chatRooms.tripPlanId, tripPlans.id)).where(eq(tripPlans.id, tripPlanId)))[0],
  );
}

/** What an edit of a plan's itinerary reads of the plan row once it holds it. */
export interface PlanHeldForEdit {
  generationStatus: string;
  region: string;
  themes: string[];
}

/**
 * Takes the plan row for an edit of its itinerary, first thing on the caller's transaction: an
 * UPDATE that changes nothing, so PostgreSQL holds the row's lock until the transaction ends (on
 * SQLite, BEGIN IMMEDIATE and the port's mutex already let one writer in at a time; the same
 * statement runs there). Every writer of a plan's days takes this row before anything else: day
 * edits here, a generation's start and its fenced writes (they update the row), a delete (it removes
 * it); so they run one after another, in one lock order, and an edit reads the day as the writer
 * before it left it. Undefined when the plan does not exist.
 */
export async function holdPlanForEdit(db: DatabasePort, q: PgQueries, tripPlanId: number): Promise<PlanHeldForEdit | undefined> {
  const { tripPlans } = db.t;
  const [plan] = await q
    .update(tripPlans)
    .set({ generationStatus: sql`generation_status` })
    .where(eq(tripPlans.id, tripPlanId))
    .returning({ generationStatus: tripPlans.generationStatus, region: tripPlans.region, themes: tripPlans.themes });
  return plan;
}

/** The keyset position of one of the member's plans, for paging after it. */
export function findOwnListCursor(db: DatabasePort, memberId: number, tripPlanId: number): Promise<ListCursor | undefined> {
  const { tripPlans } = db.t;
  return db.run(async (q) => {
    const query = prepared(q, 'findOwnListCursor', () =>
      q
        .select({ id: tripPlans.id, createdAt: tripPlans.createdAt, startDate: tripPlans.startDate })
        .from(tripPlans)
        .where(and(eq(tripPlans.id, sql.placeholder('tripPlanId')), eq(tripPlans.memberId, sql.placeholder('memberId'))))
        .prepare('findOwnListCursor'),
    );
    return (await query.execute({ tripPlanId, memberId }))[0];
  });
}

/** One page after `cursor` (a plan id of this member, already checked) in the given order; size + 1 rows. */
export function listOwnTripPlans(db: DatabasePort, memberId: number, sort: TripSort, size: number, cursor: ListCursor | null): Promise<TripPlanListItem[]> {
  return db.statements.tripPlanList.page(memberId, sort, size, cursor);
}

export function findOwnTripPlanRow(db: DatabasePort, memberId: number, tripPlanId: number): Promise<TripPlanRow | undefined> {
  const { tripPlans } = db.t;
  return db.run(async (q) => {
    const query = prepared(q, 'findOwnTripPlanRow', () =>
      q
        .select()
        .from(tripPlans)
        .where(and(eq(tripPlans.id, sql.placeholder('tripPlanId')), eq(tripPlans.memberId, sql.placeholder('memberId'))))
        .prepare('findOwnTripPlanRow'),
    );
    return (await query.execute({ tripPlanId, memberId }))[0];
  });
}

export function updateTripPlanTitle(db: DatabasePort, tripPlanId: number, title: string, nowMs: number): Promise<void> {
  const { tripPlans } = db.t;
  return db.run(async (q) => void (await q.update(tripPlans).set({ title, updatedAt: nowMs }).where(eq(tripPlans.id, tripPlanId))));
}

/** Deletes the plan; days, stops, chat room and messages go with it (ON DELETE CASCADE). */
export function deleteTripPlan(db: DatabasePort, tripPlanId: number): Promise<void> {
  const { tripPlans } = db.t;
  return db.run(async (q) => void (await q.delete(tripPlans).where(eq(tripPlans.id, tripPlanId))));
}
