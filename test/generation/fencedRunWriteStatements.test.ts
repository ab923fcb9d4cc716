// A run's per-day writes as each engine makes them (src/generation/fencedRunWriteStatements.ts),
// one contract for both implementations: each engine's port carries its own (.sqlite.ts,
// .postgres.ts).
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { DatabasePort } from '../../src/db/databasePort.js';
import type { FenceAt } from '../../src/generation/fencedRunWrites.js';
import { claimGeneration } from '../../src/generation/generationLeases.js';
import type { PlannedDay } from '../../src/itinerary/plannedDay.js';
import { cancelGeneration, startGeneration } from '../../src/trips/generationRequests.js';
import { describeOnBothEngines } from '../support/bothEngines.js';
import { withPlainSql } from '../support/plainSql.js';
import { addMember, addPlaces, addPlan, T0 } from '../support/sqlFixtures.js';

const LEASE_MS = 2000;

const day = (dayNumber: number, placeIds: number[]): PlannedDay => ({
  dayNumber,
  date: `2026-05-0${dayNumber}`,
  title: `Day ${dayNumber}`,
  description: 'See the sea.',
  stops: placeIds.map((placeId, i) => ({
    placeId,
    category: i === 0 ? 'MORNING' : 'AFTERNOON',
    travelTime: i === 0 ? null : 10,
    travelDistance: i === 0 ? null : 800,
  })),
});

/** A plan whose generation 'owner' claimed at T0, and the fence of a write 10 ms later. */
async function heldRun(port: DatabasePort, email: string): Promise<{ at: FenceAt; chatRoomId: number; tripPlanId: number }> {
  const { id: tripPlanId, chatRoomId } = await addPlan(port, await addMember(port, email));
  await startGeneration(port, tripPlanId, T0);
  const job = await claimGeneration(port, {
    owner: 'owner',
    nowMs: T0,
    leaseMs: LEASE_MS,
    perMemberLimit: 10,
    runningHere: new Set(),
    lastStartedByMember: new Map(),
  });
  return { at: { lease: job!.lease, nowMs: T0 + 10, leaseMs: LEASE_MS }, chatRoomId, tripPlanId };
}

const daysOf = (port: DatabasePort, tripPlanId: number) =>
  withPlainSql(port, (s) =>
    s.rows<{ id: number; dayNumber: number; pending: boolean | number }>(
      sql`SELECT id, day_number AS "dayNumber", summary_pending AS "pending" FROM daily_plan WHERE trip_plan_id = ${tripPlanId} ORDER BY day_number`,
    ),
  );
const stopsOf = (port: DatabasePort, dailyPlanId: number) =>
  withPlainSql(port, (s) =>
    s.rows<{ id: number; visitOrder: number; placeId: number; transportation: string }>(sql`
      SELECT id, visit_order AS "visitOrder", place_id AS "placeId", transportation FROM scheduled_place WHERE daily_plan_id = ${dailyPlanId} ORDER BY visit_order`),
  );
const messagesOf = (port: DatabasePort, chatRoomId: number) =>
  withPlainSql(port, (s) =>
    s.rows<{ id: number; messageType: string; content: string; createdAt: number }>(sql`
      SELECT id, message_type AS "messageType", content, created_at AS "createdAt" FROM chat_message WHERE chat_room_id = ${chatRoomId} ORDER BY id`),
  );
const leaseUntil = async (port: DatabasePort, tripPlanId: number) =>
  Number(
    (await withPlainSql(port, (s) => s.rows<{ until: number }>(sql`SELECT gen_lease_until AS "until" FROM trip_plan WHERE id = ${tripPlanId}`)))[0]!.until,
  );

describeOnBothEngines('fenced run write statements', (port) => {
  const statements = () => port().statements.fencedRunWrites;

  it('inserts the day (summary pending) with its stops in visit order, renews the lease, and gives their ids', async () => {
    const { at, tripPlanId } = await heldRun(port(), 'day@example.com');
    const placeIds = await addPlaces(port(), 3);
    const inserted = await statements().insertDay(port(), at, day(1, placeIds), 'WALKING');
    const [saved] = await daysOf(port(), tripPlanId);
    expect(saved).toMatchObject({ dayNumber: 1 });
    expect(Boolean(saved!.pending)).toBe(true);
    const stops = await stopsOf(port(), saved!.id);
    expect(stops.map((s) => [s.visitOrder, s.placeId, s.transportation])).toEqual(placeIds.map((id, i) => [i + 1, id, 'WALKING']));
    expect(inserted).toEqual({ held: true, value: { dayId: saved!.id, stopIds: new Map(stops.map((s) => [s.visitOrder, s.id])) } });
    expect(await leaseUntil(port(), tripPlanId)).toBe(at.nowMs + LEASE_MS);
  });

  it('inserts a day without stops', async () => {
    const { at, tripPlanId } = await heldRun(port(), 'nostops@example.com');
    const inserted = await statements().insertDay(port(), at, day(1, []), 'WALKING');
    const [saved] = await daysOf(port(), tripPlanId);
    expect(inserted).toEqual({ held: true, value: { dayId: saved!.id, stopIds: new Map() } });
  });

  it('inserts nothing for a day number that is there already', async () => {
    const { at, tripPlanId } = await heldRun(port(), 'again@example.com');
    const placeIds = await addPlaces(port(), 2);
    await statements().insertDay(port(), at, day(1, placeIds), 'WALKING');
    const before = await daysOf(port(), tripPlanId);
    expect(await statements().insertDay(port(), at, day(1, placeIds.slice(0, 1)), 'WALKING')).toEqual({ held: true, value: null });
    expect(await daysOf(port(), tripPlanId)).toEqual(before);
    expect(await stopsOf(port(), before[0]!.id)).toHaveLength(2);
  });

  it('writes nothing when the lease is lost: held false', async () => {
    const { at, tripPlanId, chatRoomId } = await heldRun(port(), 'lost@example.com');
    const placeIds = await addPlaces(port(), 1);
    await statements().insertDay(port(), at, day(1, placeIds), 'WALKING');
    await cancelGeneration(port(), tripPlanId, T0 + 20);
    expect(await statements().insertDay(port(), at, day(2, placeIds), 'WALKING')).toEqual({ held: false });
    expect(await statements().insertDaySummary(port(), at, { chatRoomId, dayNumber: 1, content: 'Day 1.', createdAt: T0 + 30 })).toEqual({ held: false });
    expect((await daysOf(port(), tripPlanId)).map((d) => d.dayNumber)).toEqual([1]);
    expect(await messagesOf(port(), chatRoomId)).toEqual([]);
    // A lease that ran out (claimed at T0) is lost as well.
    const ranOut = await heldRun(port(), 'ran-out@example.com');
    expect(await statements().insertDay(port(), { ...ranOut.at, nowMs: T0 + LEASE_MS + 1 }, day(1, placeIds), 'WALKING')).toEqual({ held: false });
    expect(await daysOf(port(), ranOut.tripPlanId)).toEqual([]);
  });

  it("stores a day's summary once, as the assistant's message, and clears the day's summary_pending", async () => {
    const { at, tripPlanId, chatRoomId } = await heldRun(port(), 'summary@example.com');
    await statements().insertDay(port(), at, day(1, await addPlaces(port(), 1)), 'WALKING');
    const summary = { chatRoomId, dayNumber: 1, content: 'Day 1: the sea.', createdAt: T0 + 30 };
    const stored = await statements().insertDaySummary(port(), at, summary);
    const messages = await messagesOf(port(), chatRoomId);
    expect(messages).toEqual([{ id: expect.any(Number) as number, messageType: 'ASSISTANT', content: 'Day 1: the sea.', createdAt: T0 + 30 }]);
    expect(stored).toEqual({ held: true, value: { id: messages[0]!.id } });
    expect(Boolean((await daysOf(port(), tripPlanId))[0]!.pending)).toBe(false);
    expect(await statements().insertDaySummary(port(), at, summary)).toEqual({ held: true, value: null });
    expect(await statements().insertDaySummary(port(), at, { ...summary, dayNumber: 2 })).toEqual({ held: true, value: null });
    expect(await messagesOf(port(), chatRoomId)).toHaveLength(1);
  });
});
