// What happens to jobs nobody runs any more. A lease that ran out (its owner was killed, froze, or
// lost the database) is failed with AI002 (GENERATION_TAKEOVER=fail) or put back to wait for another
// claim that goes on after the saved days (resume, until GENERATION_MAX_ATTEMPTS claims, then fail).
// A live lease is never touched: a starting instance leaves other instances' jobs alone. Several
// sweepers may run at once: each row's UPDATE is applied once, the others no longer match it.
import { sql } from 'drizzle-orm';
import type { DatabasePort } from '../db/databasePort.js';
import { list, type PlainSql } from '../db/plainSql.js';
import type { RunToken } from '../delivery/planLog.js';

export type Takeover = 'fail' | 'resume';

/** A job the caller must announce AI002 for (the plan is FAILED). */
export interface FailedGeneration {
  tripPlanId: number;
  memberId: number;
  chatRoomId: number;
  /** the run it ends, one attempt past the last claim: whatever a lost owner still sends is refused */
  token: RunToken;
}

type FailedRow = { tripPlanId: number; memberId: number; run: number; attempt: number };

export interface SweepRules {
  nowMs: number;
  takeover: Takeover;
  /** GENERATION_MAX_ATTEMPTS: claims of one run before an expired lease is failed instead */
  maxAttempts: number;
}

async function withChatRooms(s: PlainSql, plans: FailedRow[]): Promise<FailedGeneration[]> {
  if (plans.length === 0) return [];
  const rooms = await s.rows<{ tripPlanId: number; chatRoomId: number }>(
    sql`SELECT trip_plan_id AS "tripPlanId", id AS "chatRoomId" FROM chat_room WHERE trip_plan_id IN (${list(plans.map((p) => p.tripPlanId))})`,
  );
  const roomOf = new Map(rooms.map((r) => [r.tripPlanId, r.chatRoomId]));
  return plans.map(({ tripPlanId, memberId, run, attempt }) => ({
    tripPlanId,
    memberId,
    chatRoomId: roomOf.get(tripPlanId)!,
    token: { run, attempt: attempt + 1 },
  }));
}

export function sweepExpiredLeases(port: DatabasePort, rules: SweepRules): Promise<{ requeued: number[]; failed: FailedGeneration[] }> {
  const { nowMs } = rules;
  return port.tx(async (q) => {
    const s = port.plainSql(q);
    const requeued =
      rules.takeover === 'resume'
        ? await s.rows<{ tripPlanId: number }>(sql`
            UPDATE trip_plan SET gen_owner = NULL, gen_lease_until = NULL
            WHERE generation_status = 'GENERATING' AND gen_owner IS NOT NULL AND gen_lease_until < ${nowMs} AND gen_attempt < ${rules.maxAttempts}
            RETURNING id AS "tripPlanId"`)
        : [];
    const failed = await s.rows<FailedRow>(sql`
      UPDATE trip_plan SET generation_status = 'FAILED', failure_code = 'AI002', updated_at = ${nowMs}, gen_owner = NULL, gen_lease_until = NULL
      WHERE generation_status = 'GENERATING' AND gen_owner IS NOT NULL AND gen_lease_until < ${nowMs}
      RETURNING id AS "tripPlanId", member_id AS "memberId", gen_run AS "run", gen_attempt AS "attempt"`);
    return { requeued: requeued.map((r) => r.tripPlanId), failed: await withChatRooms(s, failed) };
  });
}

/**
 * Fails every job waiting for a claim. Only a single-process engine (SQLite) does this when it
 * stops: nobody else could run them, and openapi.yaml promises AI002 and FAILED for queued runs.
 */
export function failWaitingGenerations(port: DatabasePort, nowMs: number): Promise<FailedGeneration[]> {
  return port.tx(async (q) => {
    const s = port.plainSql(q);
    const failed = await s.rows<FailedRow>(sql`
      UPDATE trip_plan SET generation_status = 'FAILED', failure_code = 'AI002', updated_at = ${nowMs}
      WHERE generation_status = 'GENERATING' AND gen_owner IS NULL
      RETURNING id AS "tripPlanId", member_id AS "memberId", gen_run AS "run", gen_attempt AS "attempt"`);
    return withChatRooms(s, failed);
  });
}

/** GENERATING plans nobody holds a live lease on, over every instance: waiting for a claim, or their lease ran out (metrics). */
export async function countGenerationsWithoutLiveLease(port: DatabasePort, nowMs: number): Promise<number> {
  const [row] = await port.run((q) =>
    port.plainSql(q).rows<{ waiting: number }>(sql`
      SELECT CAST(COUNT(*) AS INTEGER) AS "waiting" FROM trip_plan
      WHERE generation_status = 'GENERATING' AND (gen_owner IS NULL OR gen_lease_until < ${nowMs})`),
  );
  return Number(row?.waiting ?? 0);
}

/** Jobs waiting for a claim, over every instance. */
export async function countWaitingGenerations(port: DatabasePort): Promise<number> {
  const [row] = await port.run((q) =>
    port
      .plainSql(q)
      .rows<{ waiting: number }>(
        sql`SELECT CAST(COUNT(*) AS INTEGER) AS "waiting" FROM trip_plan WHERE generation_status = 'GENERATING' AND gen_owner IS NULL`,
      ),
  );
  return row?.waiting ?? 0;
}
