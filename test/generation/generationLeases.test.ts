// The plan row is the generation job (src/generation/generationLeases.ts, generationSweep.ts,
// src/trips/generationRequests.ts), on SQLite and PostgreSQL: one winner among concurrent starts,
// claims that never hand one job to two runners, fencing by attempt, cancel seen by the owner, and
// the sweeper's fail and resume. Time is the instants the test passes in, never the wall clock.
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { DatabasePort } from '../../src/db/databasePort.js';
import {
  claimGeneration,
  endedByAttempt,
  fencedWrite,
  finishGeneration,
  releaseLease,
  renewLease,
  type ClaimRules,
  type Lease,
} from '../../src/generation/generationLeases.js';
import { saveDaySummary, saveGeneratedDay } from '../../src/generation/fencedRunWrites.js';
import { countWaitingGenerations, failWaitingGenerations, sweepExpiredLeases } from '../../src/generation/generationSweep.js';
import type { PlannedDay } from '../../src/itinerary/plannedDay.js';
import { findDay, insertDayWith } from '../../src/trips/dailyPlanRepository.js';
import { cancelGeneration, startGeneration } from '../../src/trips/generationRequests.js';
import { describeOnBothEngines } from '../support/bothEngines.js';
import { withPlainSql } from '../support/plainSql.js';

const LEASE_MS = 2000;
const T0 = 1_700_000_000_000;

async function addMember(port: DatabasePort, email: string): Promise<number> {
  const [row] = await withPlainSql(port, (s) =>
    s.rows<{ id: number }>(
      sql`INSERT INTO member (email, name, provider, created_at, updated_at) VALUES (${email}, ${email}, 'test', ${T0}, ${T0}) RETURNING id`,
    ),
  );
  return row!.id;
}

async function addPlan(port: DatabasePort, memberId: number): Promise<{ tripPlanId: number; chatRoomId: number }> {
  return withPlainSql(port, async (s) => {
    const [plan] = await s.rows<{ id: number }>(sql`
      INSERT INTO trip_plan (member_id, title, region, start_date, end_date, duration, people_count, themes, transportation, generation_status, created_at, updated_at)
      VALUES (${memberId}, 'Busan, 3 days', 'Busan', '2026-05-01', '2026-05-03', 3, 2, ${'["RESTAURANT"]'}, 'PUBLIC_TRANSIT', 'PENDING', ${T0}, ${T0}) RETURNING id`);
    const [room] = await s.rows<{ id: number }>(
      sql`INSERT INTO chat_room (member_id, trip_plan_id, created_at) VALUES (${memberId}, ${plan!.id}, ${T0}) RETURNING id`,
    );
    return { tripPlanId: plan!.id, chatRoomId: room!.id };
  });
}

async function addPlace(port: DatabasePort): Promise<number> {
  const [row] = await withPlainSql(port, (s) =>
    s.rows<{ id: number }>(sql`
      INSERT INTO place (key, region, name, address, latitude, longitude, description, is_must_visit, themes, kind, visit_minutes)
      VALUES ('busan-tower', 'Busan', 'Busan Tower', 'Yongdusan', 35.1, 129.03, 'A tower.', FALSE, ${'["SIGHTSEEING"]'}, 'SIGHT', 60) RETURNING id`),
  );
  return row!.id;
}

async function addPlaces(port: DatabasePort, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let n = 0; n < count; n++) {
    const [row] = await withPlainSql(port, (s) =>
      s.rows<{ id: number }>(sql`
        INSERT INTO place (key, region, name, address, latitude, longitude, description, is_must_visit, themes, kind, visit_minutes)
        VALUES (${`busan-spot-${n}`}, 'busan', ${`Spot ${n}`}, 'Busan', 35.1, 129.03, 'A spot.', FALSE, ${'["HEALING"]'}, 'SIGHT', 45) RETURNING id`),
    );
    ids.push(row!.id);
  }
  return ids;
}

async function chatMessageCount(port: DatabasePort, chatRoomId: number): Promise<number> {
  const [row] = await withPlainSql(port, (s) =>
    s.rows<{ n: number }>(sql`SELECT CAST(COUNT(*) AS INTEGER) AS "n" FROM chat_message WHERE chat_room_id = ${chatRoomId}`),
  );
  return Number(row!.n);
}

async function planState(port: DatabasePort, tripPlanId: number) {
  const [row] = await withPlainSql(port, (s) =>
    s.rows<{ status: string; failureCode: string | null; owner: string | null; attempt: number; run: number }>(sql`
      SELECT generation_status AS "status", failure_code AS "failureCode", gen_owner AS "owner", gen_attempt AS "attempt", gen_run AS "run"
      FROM trip_plan WHERE id = ${tripPlanId}`),
  );
  return row;
}

async function dayIds(port: DatabasePort, tripPlanId: number): Promise<{ dayNumber: number; id: number }[]> {
  return withPlainSql(port, (s) =>
    s.rows<{ dayNumber: number; id: number }>(sql`SELECT day_number AS "dayNumber", id FROM daily_plan WHERE trip_plan_id = ${tripPlanId} ORDER BY day_number`),
  );
}

const day = (dayNumber: number, placeId: number): PlannedDay => ({
  dayNumber,
  date: `2026-05-0${dayNumber}`,
  title: `Day ${dayNumber}`,
  description: 'See the sea.',
  stops: [{ placeId, category: 'MORNING', travelTime: null, travelDistance: null }],
});

const rules = (owner: string, nowMs: number, extra: Partial<ClaimRules> = {}): ClaimRules => ({
  owner,
  nowMs,
  leaseMs: LEASE_MS,
  perMemberLimit: 100,
  runningHere: new Set(),
  lastStartedByMember: new Map(),
  ...extra,
});

/** Claims until nothing is left; the ids claimed, in order. */
async function claimAll(port: DatabasePort, owner: string, nowMs: number): Promise<number[]> {
  const claimed: number[] = [];
  for (;;) {
    const job = await claimGeneration(port, rules(owner, nowMs));
    if (!job) return claimed;
    claimed.push(job.lease.tripPlanId);
  }
}

describeOnBothEngines(
  'generation job on the plan row',
  (port) => {
    it('20 concurrent starts of one plan: exactly one wins; a GENERATING or COMPLETED plan cannot start', async () => {
      const { tripPlanId } = await addPlan(port(), await addMember(port(), 'starter@example.com'));
      const results = await Promise.all(Array.from({ length: 20 }, () => startGeneration(port(), tripPlanId, T0)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await planState(port(), tripPlanId)).toMatchObject({ status: 'GENERATING', owner: null, attempt: 0, run: 1 });

      const job = (await claimGeneration(port(), rules('a', T0)))!;
      expect(await finishGeneration(port(), job.lease, T0 + 1, 'COMPLETED')).toBe(true);
      expect(await startGeneration(port(), tripPlanId, T0 + 2)).toBe(false);
      expect((await planState(port(), tripPlanId))!.status).toBe('COMPLETED');
    });

    it('a restart from FAILED or CANCELLED is a new run and drops the saved days', async () => {
      const placeId = await addPlace(port());
      const { tripPlanId } = await addPlan(port(), await addMember(port(), 'restart@example.com'));
      await startGeneration(port(), tripPlanId, T0);
      const job = (await claimGeneration(port(), rules('a', T0)))!;
      expect((await fencedWrite(port(), job.lease, T0, LEASE_MS, (q) => insertDayWith(port(), q, tripPlanId, day(1, placeId), 'WALKING'))).held).toBe(true);
      expect(await cancelGeneration(port(), tripPlanId, T0 + 1)).toEqual({ run: 1, attempt: 1 });
      expect(await cancelGeneration(port(), tripPlanId, T0 + 1)).toBeUndefined();
      expect(await dayIds(port(), tripPlanId)).toHaveLength(1);
      expect(await startGeneration(port(), tripPlanId, T0 + 2)).toBe(true);
      expect(await dayIds(port(), tripPlanId)).toEqual([]);
      expect(await planState(port(), tripPlanId)).toMatchObject({ status: 'GENERATING', run: 2, attempt: 0, owner: null });
    });

    it('two runners claiming at once never get the same plan, and together get every waiting plan', async () => {
      const started: number[] = [];
      for (let m = 0; m < 6; m++) {
        const memberId = await addMember(port(), `m${m}@example.com`);
        for (let p = 0; p < 3; p++) {
          const { tripPlanId } = await addPlan(port(), memberId);
          await startGeneration(port(), tripPlanId, T0);
          started.push(tripPlanId);
        }
      }
      const [a, b] = await Promise.all([claimAll(port(), 'runner-a', T0), claimAll(port(), 'runner-b', T0)]);
      expect([...a, ...b].sort((x, y) => x - y)).toEqual(started);
      expect(new Set([...a, ...b]).size).toBe(started.length);
      for (const id of a) expect(await planState(port(), id)).toMatchObject({ owner: 'runner-a', attempt: 1 });
      expect(await countWaitingGenerations(port())).toBe(0);
    });

    it('the per-member limit holds over runners claiming at once', async () => {
      const memberId = await addMember(port(), 'limited@example.com');
      for (let p = 0; p < 5; p++) await startGeneration(port(), (await addPlan(port(), memberId)).tripPlanId, T0);
      const claims = await Promise.all(['a', 'b', 'a', 'b', 'a', 'b'].map((owner) => claimGeneration(port(), rules(owner, T0, { perMemberLimit: 2 }))));
      expect(claims.filter(Boolean)).toHaveLength(2);
      expect(await countWaitingGenerations(port())).toBe(3);
    });

    it('a runner whose heartbeat stopped past its lease is fenced: after a takeover its writes change nothing', async () => {
      const placeId = await addPlace(port());
      const { tripPlanId } = await addPlan(port(), await addMember(port(), 'zombie@example.com'));
      await startGeneration(port(), tripPlanId, T0);
      const zombie = (await claimGeneration(port(), rules('zombie', T0)))!;
      expect(await renewLease(port(), zombie.lease, T0 + 500, LEASE_MS)).toBe(true);
      // No heartbeat after T0 + 500: the lease ends at T0 + 2500.
      const late = T0 + 500 + LEASE_MS + 1;
      expect(await fencedWrite(port(), zombie.lease, late, LEASE_MS, () => Promise.resolve('written'))).toEqual({ held: false });
      expect(await sweepExpiredLeases(port(), { nowMs: late, takeover: 'resume', maxAttempts: 2 })).toEqual({ requeued: [tripPlanId], failed: [] });
      const heir = (await claimGeneration(port(), rules('heir', late)))!;
      expect(heir.lease).toEqual({ tripPlanId, run: 1, attempt: 2, owner: 'heir' });

      // The zombie wakes up with a clock that says its lease is still on: the attempt fences it.
      const zombieWrite = await fencedWrite(port(), zombie.lease, T0 + 1000, LEASE_MS, (q) => insertDayWith(port(), q, tripPlanId, day(1, placeId), 'WALKING'));
      expect(zombieWrite).toEqual({ held: false });
      expect(await renewLease(port(), zombie.lease, late, LEASE_MS)).toBe(false);
      expect(await finishGeneration(port(), zombie.lease, late, 'COMPLETED')).toBe(false);
      expect(await releaseLease(port(), zombie.lease, late)).toBe(false);
      expect(await dayIds(port(), tripPlanId)).toEqual([]);

      const heirWrite = await fencedWrite(port(), heir.lease, late, LEASE_MS, (q) => insertDayWith(port(), q, tripPlanId, day(1, placeId), 'WALKING'));
      expect(heirWrite.held).toBe(true);
      expect(await dayIds(port(), tripPlanId)).toHaveLength(1);
    });

    it("the run's own writes (a day with its stops, the day's summary) are fenced: a lost lease writes nothing, a held one returns the day as stored", async () => {
      const placeIds = await addPlaces(port(), 3);
      const { tripPlanId, chatRoomId } = await addPlan(port(), await addMember(port(), 'run-writes@example.com'));
      await startGeneration(port(), tripPlanId, T0);
      const zombie = (await claimGeneration(port(), rules('zombie', T0)))!;
      const late = T0 + LEASE_MS + 1;
      await sweepExpiredLeases(port(), { nowMs: late, takeover: 'resume', maxAttempts: 2 });
      const heir = (await claimGeneration(port(), rules('heir', late)))!;
      const planned: PlannedDay = {
        ...day(1, placeIds[0]!),
        stops: [
          { placeId: placeIds[2]!, category: 'MORNING', travelTime: null, travelDistance: null },
          { placeId: placeIds[0]!, category: 'AFTERNOON', travelTime: 12, travelDistance: 800 },
          { placeId: placeIds[1]!, category: 'EVENING', travelTime: 25, travelDistance: 4100 },
        ],
      };
      const summary = { chatRoomId, dayNumber: 1, content: 'Day 1: the sea.', createdAt: late };

      // The zombie's clock says its lease is on; the attempt fences it.
      expect(await saveGeneratedDay(port(), { lease: zombie.lease, nowMs: T0 + 1000, leaseMs: LEASE_MS }, planned, 'WALKING')).toEqual({ held: false });
      expect(await saveDaySummary(port(), { lease: zombie.lease, nowMs: T0 + 1000, leaseMs: LEASE_MS }, summary)).toEqual({ held: false });
      expect(await dayIds(port(), tripPlanId)).toEqual([]);
      expect(await chatMessageCount(port(), chatRoomId)).toBe(0);

      const saved = await saveGeneratedDay(port(), { lease: heir.lease, nowMs: late, leaseMs: LEASE_MS }, planned, 'WALKING');
      expect(saved.held).toBe(true);
      expect(saved.held && saved.value).toEqual(await findDay(port(), tripPlanId, 1));
      expect(saved.held && saved.value.stops.map((s) => [s.visitOrder, s.placeId, s.place.id])).toEqual([
        [1, placeIds[2], placeIds[2]],
        [2, placeIds[0], placeIds[0]],
        [3, placeIds[1], placeIds[1]],
      ]);
      expect((await saveDaySummary(port(), { lease: heir.lease, nowMs: late, leaseMs: LEASE_MS }, summary)).held).toBe(true);
      expect(await chatMessageCount(port(), chatRoomId)).toBe(1);

      // A cancel fences them too.
      await cancelGeneration(port(), tripPlanId, late + 1);
      expect(await saveGeneratedDay(port(), { lease: heir.lease, nowMs: late + 2, leaseMs: LEASE_MS }, day(2, placeIds[0]!), 'WALKING')).toEqual({
        held: false,
      });
      expect(await saveDaySummary(port(), { lease: heir.lease, nowMs: late + 2, leaseMs: LEASE_MS }, summary)).toEqual({ held: false });
      expect(await dayIds(port(), tripPlanId)).toHaveLength(1);
      expect(await chatMessageCount(port(), chatRoomId)).toBe(1);
    });

    it('a write sent again after a lost answer is applied once: the day is read back as saved, the summary stored once, the finish recognised', async () => {
      const placeIds = await addPlaces(port(), 2);
      const { tripPlanId, chatRoomId } = await addPlan(port(), await addMember(port(), 'again@example.com'));
      await startGeneration(port(), tripPlanId, T0);
      const job = (await claimGeneration(port(), rules('owner', T0)))!;
      const at = (nowMs: number) => ({ lease: job.lease, nowMs, leaseMs: LEASE_MS });
      const planned: PlannedDay = {
        ...day(1, placeIds[0]!),
        stops: placeIds.map((placeId) => ({ placeId, category: 'MORNING', travelTime: null, travelDistance: null })),
      };

      const first = await saveGeneratedDay(port(), at(T0 + 10), planned, 'WALKING');
      const again = await saveGeneratedDay(port(), at(T0 + 20), planned, 'WALKING');
      expect(again).toEqual(first);
      expect(await dayIds(port(), tripPlanId)).toEqual([{ dayNumber: 1, id: first.held && first.value.id }]);

      const summary = { chatRoomId, dayNumber: 1, content: 'Day 1: the sea.', createdAt: T0 + 30 };
      const stored = await saveDaySummary(port(), at(T0 + 30), summary);
      expect(stored).toEqual({ held: true, value: { id: expect.any(Number) as number } });
      expect(await saveDaySummary(port(), at(T0 + 40), summary)).toEqual({ held: true, value: null });
      expect(await chatMessageCount(port(), chatRoomId)).toBe(1);

      expect(await finishGeneration(port(), job.lease, T0 + 50, 'COMPLETED')).toBe(true);
      expect(await finishGeneration(port(), job.lease, T0 + 60, 'COMPLETED')).toBe(false);
      expect(await endedByAttempt(port(), job.lease, 'COMPLETED')).toBe(true);
      expect(await endedByAttempt(port(), { ...job.lease, attempt: job.lease.attempt + 1 }, 'COMPLETED')).toBe(false);
    });

    it('a resumed claim learns the saved days whose summary the earlier attempt did not store', async () => {
      const placeId = await addPlace(port());
      const { tripPlanId, chatRoomId } = await addPlan(port(), await addMember(port(), 'unsummarised@example.com'));
      await startGeneration(port(), tripPlanId, T0);
      const first = (await claimGeneration(port(), rules('first', T0)))!;
      expect(first).toMatchObject({ savedDays: 0, unsummarisedDays: [], claimedAtMs: T0 });
      const at = { lease: first.lease, nowMs: T0 + 10, leaseMs: LEASE_MS };
      await saveGeneratedDay(port(), at, day(1, placeId), 'WALKING');
      await saveDaySummary(port(), at, { chatRoomId, dayNumber: 1, content: 'Day 1.', createdAt: T0 + 10 });
      // The first owner dies between day 2 and its summary.
      await saveGeneratedDay(port(), at, day(2, placeId), 'WALKING');

      const late = T0 + 10 + LEASE_MS + 1;
      await sweepExpiredLeases(port(), { nowMs: late, takeover: 'resume', maxAttempts: 2 });
      const heir = (await claimGeneration(port(), rules('heir', late)))!;
      expect(heir).toMatchObject({ savedDays: 2, unsummarisedDays: [2], claimedAtMs: late });
      expect(
        await saveDaySummary(port(), { lease: heir.lease, nowMs: late, leaseMs: LEASE_MS }, { chatRoomId, dayNumber: 2, content: 'Day 2.', createdAt: late }),
      ).toMatchObject({
        held: true,
        value: { id: expect.any(Number) as number },
      });
      expect(await chatMessageCount(port(), chatRoomId)).toBe(2);
    });

    it('an owner from an earlier run of the plan is fenced even with the same attempt number', async () => {
      const { tripPlanId } = await addPlan(port(), await addMember(port(), 'rerun@example.com'));
      await startGeneration(port(), tripPlanId, T0);
      const first = (await claimGeneration(port(), rules('same', T0)))!;
      await cancelGeneration(port(), tripPlanId, T0);
      await startGeneration(port(), tripPlanId, T0);
      const second = (await claimGeneration(port(), rules('same', T0)))!;
      expect(second.lease).toEqual({ ...first.lease, run: 2 });
      expect(await renewLease(port(), first.lease, T0, LEASE_MS)).toBe(false);
      expect(await renewLease(port(), second.lease, T0, LEASE_MS)).toBe(true);
    });

    it('a cancel is seen by the owner at its next fenced write and heartbeat', async () => {
      const placeId = await addPlace(port());
      const { tripPlanId } = await addPlan(port(), await addMember(port(), 'cancel@example.com'));
      await startGeneration(port(), tripPlanId, T0);
      const job = (await claimGeneration(port(), rules('owner', T0)))!;
      expect(await cancelGeneration(port(), tripPlanId, T0 + 10)).toEqual({ run: 1, attempt: 1 });
      expect(await fencedWrite(port(), job.lease, T0 + 20, LEASE_MS, (q) => insertDayWith(port(), q, tripPlanId, day(1, placeId), 'WALKING'))).toEqual({
        held: false,
      });
      expect(await renewLease(port(), job.lease, T0 + 20, LEASE_MS)).toBe(false);
      expect(await finishGeneration(port(), job.lease, T0 + 20, 'COMPLETED')).toBe(false);
      expect(await planState(port(), tripPlanId)).toMatchObject({ status: 'CANCELLED', owner: null });
      expect(await dayIds(port(), tripPlanId)).toEqual([]);
    });

    it('sweeper, takeover fail: an expired lease ends FAILED with AI002; a live lease and a waiting job are left alone', async () => {
      const memberId = await addMember(port(), 'sweep@example.com');
      const expired = await addPlan(port(), memberId);
      const live = await addPlan(port(), memberId);
      const waiting = await addPlan(port(), memberId);
      await startGeneration(port(), expired.tripPlanId, T0);
      await claimGeneration(port(), rules('dead', T0));
      await startGeneration(port(), live.tripPlanId, T0 + LEASE_MS);
      const liveJob = (await claimGeneration(port(), rules('alive', T0 + LEASE_MS)))!;
      await startGeneration(port(), waiting.tripPlanId, T0 + LEASE_MS);

      const swept = await sweepExpiredLeases(port(), { nowMs: T0 + LEASE_MS + 1, takeover: 'fail', maxAttempts: 2 });
      expect(swept).toEqual({
        requeued: [],
        failed: [{ tripPlanId: expired.tripPlanId, memberId, chatRoomId: expired.chatRoomId, token: { run: 1, attempt: 2 } }],
      });
      expect(await planState(port(), expired.tripPlanId)).toMatchObject({ status: 'FAILED', failureCode: 'AI002', owner: null });
      expect(await planState(port(), live.tripPlanId)).toMatchObject({ status: 'GENERATING', owner: 'alive' });
      expect(await planState(port(), waiting.tripPlanId)).toMatchObject({ status: 'GENERATING', owner: null });
      expect(liveJob.lease.tripPlanId).toBe(live.tripPlanId);
      // Another sweeper at the same moment finds nothing left to do.
      expect(await sweepExpiredLeases(port(), { nowMs: T0 + LEASE_MS + 1, takeover: 'fail', maxAttempts: 2 })).toEqual({ requeued: [], failed: [] });
    });

    it('sweeper, takeover resume: the next claim goes on after the saved days (same ids); after GENERATION_MAX_ATTEMPTS it fails', async () => {
      const placeId = await addPlace(port());
      const memberId = await addMember(port(), 'resume@example.com');
      const { tripPlanId, chatRoomId } = await addPlan(port(), memberId);
      await startGeneration(port(), tripPlanId, T0);
      const first = (await claimGeneration(port(), rules('first', T0)))!;
      expect(first.savedDays).toBe(0);
      for (const n of [1, 2]) await fencedWrite(port(), first.lease, T0, LEASE_MS, (q) => insertDayWith(port(), q, tripPlanId, day(n, placeId), 'WALKING'));
      const saved = await dayIds(port(), tripPlanId);

      let now = T0 + LEASE_MS + 1;
      expect((await sweepExpiredLeases(port(), { nowMs: now, takeover: 'resume', maxAttempts: 2 })).requeued).toEqual([tripPlanId]);
      const second = (await claimGeneration(port(), rules('second', now)))!;
      expect(second).toMatchObject({ savedDays: 2, lease: { attempt: 2, run: 1 }, event: { tripPlanId, memberId, chatRoomId } });
      expect(second.event.request).toEqual({
        themes: ['RESTAURANT'],
        startDate: '2026-05-01',
        duration: 3,
        region: 'Busan',
        peopleCount: 2,
        transportation: 'PUBLIC_TRANSIT',
      });
      expect(await dayIds(port(), tripPlanId)).toEqual(saved);

      now += LEASE_MS + 1;
      expect(await sweepExpiredLeases(port(), { nowMs: now, takeover: 'resume', maxAttempts: 2 })).toEqual({
        requeued: [],
        failed: [{ tripPlanId, memberId, chatRoomId, token: { run: 1, attempt: 3 } }],
      });
      expect(await planState(port(), tripPlanId)).toMatchObject({ status: 'FAILED', failureCode: 'AI002' });
      expect(await dayIds(port(), tripPlanId)).toEqual(saved);
    });

    it('a released lease is claimable at once by another runner, with the next attempt', async () => {
      const { tripPlanId } = await addPlan(port(), await addMember(port(), 'release@example.com'));
      await startGeneration(port(), tripPlanId, T0);
      const job = (await claimGeneration(port(), rules('stopping', T0)))!;
      expect(await releaseLease(port(), job.lease, T0 + 1)).toBe(true);
      const next = (await claimGeneration(port(), rules('other', T0 + 1)))!;
      expect(next.lease).toEqual<Lease>({ tripPlanId, run: 1, attempt: 2, owner: 'other' });
    });

    it('claims follow the fairness rule: queued order within a member, the member who started longest ago first', async () => {
      const a = await addMember(port(), 'fair-a@example.com');
      const b = await addMember(port(), 'fair-b@example.com');
      const plans: number[] = [];
      for (const [memberId, at] of [
        [a, T0],
        [a, T0 + 1],
        [b, T0 + 2],
      ] as const) {
        const { tripPlanId } = await addPlan(port(), memberId);
        await startGeneration(port(), tripPlanId, at);
        plans.push(tripPlanId);
      }
      // This runner last started a job of member a: b's job goes first although a's waited longer.
      const first = await claimGeneration(port(), rules('r', T0 + 3, { lastStartedByMember: new Map([[a, 1]]) }));
      expect(first?.lease.tripPlanId).toBe(plans[2]);
      // Without that memory, the job waiting longest; a plan still unwinding here is skipped.
      const second = await claimGeneration(port(), rules('r', T0 + 3, { runningHere: new Set([plans[0]!]) }));
      expect(second?.lease.tripPlanId).toBe(plans[1]);
    });

    it('failWaitingGenerations fails only the jobs nobody holds', async () => {
      const memberId = await addMember(port(), 'stop@example.com');
      const held = await addPlan(port(), memberId);
      const waiting = await addPlan(port(), memberId);
      await startGeneration(port(), held.tripPlanId, T0);
      await claimGeneration(port(), rules('a', T0));
      await startGeneration(port(), waiting.tripPlanId, T0);
      expect(await failWaitingGenerations(port(), T0)).toEqual([
        { tripPlanId: waiting.tripPlanId, memberId, chatRoomId: waiting.chatRoomId, token: { run: 1, attempt: 1 } },
      ]);
      expect((await planState(port(), held.tripPlanId))!.status).toBe('GENERATING');
    });
  },
  { poolMax: 24 },
);
