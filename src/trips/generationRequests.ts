// The two state changes a member asks for over HTTP, each one conditional UPDATE on the plan row
// (the row is the generation job, docs/design/scale-out.md, "Generation jobs on the plan row"): whichever instance
// gets the request, concurrent requests have exactly one winner, because the engine serialises the
// updates of one row and the loser's WHERE no longer matches (PostgreSQL re-checks it under READ
// COMMITTED).
import { sql } from 'drizzle-orm';
import type { DatabasePort } from '../db/databasePort.js';
import type { RunToken } from '../delivery/planLog.js';

/**
 * Start (openapi.yaml, startTripPlanGeneration): from PENDING, FAILED or CANCELLED to GENERATING as
 * a new run with no owner yet, waiting for a runner to claim it; the days of an earlier run go in
 * the same transaction. False when the plan is GENERATING or COMPLETED (409 TRIP106).
 * gen_heartbeat_at of a waiting job is when it was queued: runners take waiting jobs in that order.
 * `traceparent` (the start request's, when traced) goes with the job: whichever instance runs it
 * continues that trace, a resumed attempt too.
 */
export function startGeneration(port: DatabasePort, tripPlanId: number, nowMs: number, traceparent: string | null = null): Promise<boolean> {
  return port.tx(async (q) => {
    const s = port.plainSql(q);
    const moved = await s.rows(sql`
      UPDATE trip_plan SET generation_status = 'GENERATING', failure_code = NULL, updated_at = ${nowMs},
        gen_run = gen_run + 1, gen_attempt = 0, gen_owner = NULL, gen_lease_until = NULL, gen_heartbeat_at = ${nowMs},
        gen_traceparent = ${traceparent}
      WHERE id = ${tripPlanId} AND generation_status IN ('PENDING', 'FAILED', 'CANCELLED')
      RETURNING id`);
    if (moved.length !== 1) return false;
    await s.run(sql`DELETE FROM daily_plan WHERE trip_plan_id = ${tripPlanId}`);
    return true;
  });
}

/**
 * Cancel: GENERATING to CANCELLED, returning the run it ended; undefined when nothing runs (409 TRIP106). The runner that owns the
 * job, on any instance, sees it at its next fenced write or heartbeat and stops writing.
 */
export function cancelGeneration(port: DatabasePort, tripPlanId: number, nowMs: number): Promise<RunToken | undefined> {
  return port.run(async (q) => {
    const [ended] = await port.plainSql(q).rows<RunToken>(sql`
      UPDATE trip_plan SET generation_status = 'CANCELLED', updated_at = ${nowMs}, gen_owner = NULL, gen_lease_until = NULL
      WHERE id = ${tripPlanId} AND generation_status = 'GENERATING'
      RETURNING gen_run AS "run", gen_attempt AS "attempt"`);
    return ended;
  });
}
