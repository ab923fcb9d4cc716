// The plan row is the generation job (docs/design/scale-out.md, "Generation jobs on the plan row"): a runner claims a
// waiting job by writing itself in as owner with a lease, renews the lease with heartbeats, and
// every write it makes for the job is fenced by (run, attempt, owner): the attempt grows by one on
// every claim, so a runner that lost its lease (paused past it, taken over, cancelled) writes
// nothing and learns it lost. Written once for both engines, in plain SQL through the port
// (db/plainSql.ts); what a claim locks differs per engine (generationClaimLocks.ts).
import { sql, type SQL } from 'drizzle-orm';
import type { DatabasePort, PgQueries } from '../db/databasePort.js';
import { list, type PlainSql } from '../db/plainSql.js';
import type { TripPlanGenerationRequestedEvent } from '../events/eventBus.js';
import { pickNextGeneration, type WaitingGeneration } from './nextGeneration.js';

/** Who holds a job, and which attempt of which run: the fencing token. */
export interface Lease {
  tripPlanId: number;
  run: number;
  attempt: number;
  owner: string;
}

export interface ClaimedGeneration {
  lease: Lease;
  event: TripPlanGenerationRequestedEvent;
  /** the highest day number an earlier attempt of this run saved (0: none); a resumed run goes on after it */
  savedDays: number;
  /** saved days whose chat summary an earlier attempt did not store (it stopped in between), in day order */
  unsummarisedDays: number[];
  /** the instant the claim was made: the lease's first term starts there */
  claimedAtMs: number;
  /** when the job started waiting for this claim (for the first attempt: when its start was accepted) */
  queuedAtMs: number;
  /** the W3C traceparent of the start request (null: not traced); every attempt continues its trace */
  traceparent: string | null;
}

export interface ClaimRules {
  owner: string;
  nowMs: number;
  leaseMs: number;
  /** GENERATION_CONCURRENCY_PER_USER, counted over every instance */
  perMemberLimit: number;
  /** plans whose earlier run still unwinds in this process (a restarted plan waits for it) */
  runningHere: ReadonlySet<number>;
  /** the fairness memory of this runner (nextGeneration.ts) */
  lastStartedByMember: ReadonlyMap<number, number>;
}

/** How many waiting jobs one claim looks at: enough to see every waiting member in practice. */
const CANDIDATES = 1000;

/** The owner's current attempt, its lease not yet over: the condition of every fenced write. */
export function fenced(lease: Lease, nowMs: number): SQL {
  return sql`id = ${lease.tripPlanId} AND gen_run = ${lease.run} AND gen_attempt = ${lease.attempt} AND gen_owner = ${lease.owner}
    AND generation_status = 'GENERATING' AND gen_lease_until >= ${nowMs}`;
}

export type FenceParameter = 'tripPlanId' | 'run' | 'attempt' | 'owner' | 'nowMs';

/**
 * `fenced` as SQL text for a prepared statement, its parameters written by `parameter` (@name for
 * better-sqlite3, $n for node-postgres): the run's per-day writes (fencedRunWriteStatements.sqlite.ts, .postgres.ts).
 */
export function fenceConditionText(parameter: (name: FenceParameter) => string): string {
  return `id = ${parameter('tripPlanId')} AND gen_run = ${parameter('run')} AND gen_attempt = ${parameter('attempt')} AND gen_owner = ${parameter('owner')}
    AND generation_status = 'GENERATING' AND gen_lease_until >= ${parameter('nowMs')}`;
}

async function runningByMember(s: PlainSql, memberIds: number[]): Promise<Map<number, number>> {
  if (memberIds.length === 0) return new Map();
  const rows = await s.rows<{ memberId: number; running: number }>(sql`
    SELECT member_id AS "memberId", CAST(COUNT(*) AS INTEGER) AS "running" FROM trip_plan
    WHERE generation_status = 'GENERATING' AND gen_owner IS NOT NULL AND member_id IN (${list(memberIds)})
    GROUP BY member_id`);
  return new Map(rows.map((r) => [r.memberId, r.running]));
}

interface ClaimedRow {
  tripPlanId: number;
  memberId: number;
  chatRoomId: number;
  themes: string[] | string;
  startDate: string;
  duration: number;
  region: string;
  peopleCount: number;
  transportation: TripPlanGenerationRequestedEvent['request']['transportation'];
  savedDays: number;
  traceparent: string | null;
}

async function claimedGeneration(s: PlainSql, lease: Lease, queuedAtMs: number, claimedAtMs: number): Promise<ClaimedGeneration> {
  const [row] = await s.rows<ClaimedRow>(sql`
    SELECT p.id AS "tripPlanId", p.member_id AS "memberId", r.id AS "chatRoomId", p.themes, p.start_date AS "startDate",
      p.duration, p.region, p.people_count AS "peopleCount", p.transportation, p.gen_traceparent AS "traceparent",
      (SELECT COALESCE(MAX(d.day_number), 0) FROM daily_plan d WHERE d.trip_plan_id = p.id) AS "savedDays"
    FROM trip_plan p JOIN chat_room r ON r.trip_plan_id = p.id WHERE p.id = ${lease.tripPlanId}`);
  if (!row) throw new Error(`claimed trip plan ${lease.tripPlanId} has no row`);
  const unsummarised = await s.rows<{ dayNumber: number }>(sql`
    SELECT day_number AS "dayNumber" FROM daily_plan WHERE trip_plan_id = ${lease.tripPlanId} AND summary_pending ORDER BY day_number`);
  // jsonb arrives parsed, SQLite's JSON text does not.
  const themes = (typeof row.themes === 'string' ? JSON.parse(row.themes) : row.themes) as TripPlanGenerationRequestedEvent['request']['themes'];
  const { tripPlanId, memberId, chatRoomId, startDate, duration, region, peopleCount, transportation } = row;
  return {
    lease,
    event: { tripPlanId, memberId, chatRoomId, request: { themes, startDate, duration, region, peopleCount, transportation } },
    savedDays: Number(row.savedDays),
    unsummarisedDays: unsummarised.map((d) => d.dayNumber),
    claimedAtMs,
    queuedAtMs,
    traceparent: row.traceparent,
  };
}

/**
 * Claims the waiting job the fairness rule picks (nextGeneration.ts) for `owner`, or undefined when
 * none may start. A job is waiting while it is GENERATING with no owner: just started, released by a
 * stopping instance, or re-queued by the sweeper (GENERATION_TAKEOVER=resume).
 */
export function claimGeneration(port: DatabasePort, rules: ClaimRules): Promise<ClaimedGeneration | undefined> {
  const locks = port.statements.generationClaimLocks;
  return port.tx(async (q) => {
    const s = port.plainSql(q);
    // gen_heartbeat_at of a waiting job is when it was queued (generationRequests.ts).
    let waiting = await s.rows<WaitingGeneration & { queuedAt: number | string }>(sql`
      SELECT id AS "tripPlanId", member_id AS "memberId", gen_heartbeat_at AS "queuedAt" FROM trip_plan
      WHERE generation_status = 'GENERATING' AND gen_owner IS NULL
      ORDER BY gen_heartbeat_at, id LIMIT ${CANDIDATES}`);
    const running = await runningByMember(s, [...new Set(waiting.map((w) => w.memberId))]);
    for (;;) {
      const next = pickNextGeneration(waiting, {
        runningByMember: running,
        runningPlans: rules.runningHere,
        lastStartedByMember: rules.lastStartedByMember,
        perMemberLimit: rules.perMemberLimit,
      });
      if (next < 0) return undefined;
      const { tripPlanId, memberId, queuedAt } = waiting[next]!;
      // Another instance may have claimed a job of this member since the count: count again under
      // the member's lock, which that instance held until its claim committed.
      await locks.lockMemberClaims(s, memberId);
      const runningNow = (await runningByMember(s, [memberId])).get(memberId) ?? 0;
      running.set(memberId, runningNow);
      if (runningNow >= rules.perMemberLimit) continue;
      const [claimed] = await s.rows<{ run: number; attempt: number }>(sql`
        UPDATE trip_plan SET gen_owner = ${rules.owner}, gen_attempt = gen_attempt + 1,
          gen_lease_until = ${rules.nowMs + rules.leaseMs}, gen_heartbeat_at = ${rules.nowMs}
        WHERE id = (SELECT id FROM trip_plan WHERE id = ${tripPlanId} AND generation_status = 'GENERATING' AND gen_owner IS NULL
                    ${locks.skipRowsBeingClaimed})
        RETURNING gen_run AS "run", gen_attempt AS "attempt"`);
      if (claimed) return claimedGeneration(s, { tripPlanId, run: claimed.run, attempt: claimed.attempt, owner: rules.owner }, Number(queuedAt), rules.nowMs);
      // Claimed, cancelled or deleted by someone else meanwhile.
      waiting = waiting.filter((w) => w.tripPlanId !== tripPlanId);
    }
  });
}

/** Which of these members have a plan GENERATING (running or waiting, on any instance). */
export async function membersGenerating(port: DatabasePort, memberIds: number[]): Promise<Set<number>> {
  if (memberIds.length === 0) return new Set();
  const rows = await port.run((q) =>
    port
      .plainSql(q)
      .rows<{ memberId: number }>(
        sql`SELECT DISTINCT member_id AS "memberId" FROM trip_plan WHERE generation_status = 'GENERATING' AND member_id IN (${list(memberIds)})`,
      ),
  );
  return new Set(rows.map((r) => r.memberId));
}

/** The heartbeat: extends the lease; false when the lease is lost (cancelled, deleted, taken over or over). */
export function renewLease(port: DatabasePort, lease: Lease, nowMs: number, leaseMs: number): Promise<boolean> {
  return port.run(async (q) => (await port.plainSql(q).rows(renewal(lease, nowMs, leaseMs))).length === 1);
}

function renewal(lease: Lease, nowMs: number, leaseMs: number): SQL {
  return sql`UPDATE trip_plan SET gen_lease_until = ${nowMs + leaseMs}, gen_heartbeat_at = ${nowMs} WHERE ${fenced(lease, nowMs)} RETURNING id`;
}

export type Fenced<T> = { held: true; value: T } | { held: false };

/**
 * `write` in one transaction with the fence check (which also renews the lease), or nothing at all
 * when the lease is lost. On PostgreSQL the check locks the plan row until the commit, so a cancel
 * arriving meanwhile waits for the write and the write is never half-cancelled.
 */
export function fencedWrite<T>(port: DatabasePort, lease: Lease, nowMs: number, leaseMs: number, write: (q: PgQueries) => Promise<T>): Promise<Fenced<T>> {
  return port.tx(async (q): Promise<Fenced<T>> => {
    if ((await port.plainSql(q).rows(renewal(lease, nowMs, leaseMs))).length !== 1) return { held: false };
    return { held: true, value: await write(q) };
  });
}

/** The run's end, written by its owner: COMPLETED, or FAILED with AI002. False when the lease is lost. */
export function finishGeneration(port: DatabasePort, lease: Lease, nowMs: number, status: 'COMPLETED' | 'FAILED'): Promise<boolean> {
  const failureCode = status === 'FAILED' ? 'AI002' : null;
  return port.run(async (q) => {
    const rows = await port.plainSql(q).rows(sql`
      UPDATE trip_plan SET generation_status = ${status}, failure_code = ${failureCode}, updated_at = ${nowMs}, gen_owner = NULL, gen_lease_until = NULL
      WHERE ${fenced(lease, nowMs)} RETURNING id`);
    return rows.length === 1;
  });
}

/**
 * Whether this lease's attempt ended the run with `status`: a finish whose answer was lost may
 * have committed (the fence no longer matches a run that ended), and a retry asks this.
 */
export async function endedByAttempt(port: DatabasePort, lease: Lease, status: 'COMPLETED' | 'FAILED'): Promise<boolean> {
  const rows = await port.run((q) =>
    port.plainSql(q).rows(sql`
      SELECT id FROM trip_plan WHERE id = ${lease.tripPlanId} AND gen_run = ${lease.run} AND gen_attempt = ${lease.attempt} AND generation_status = ${status}`),
  );
  return rows.length === 1;
}

/** Gives a job back (a stopping instance, GENERATION_TAKEOVER=resume): it waits for the next claim at once. */
export function releaseLease(port: DatabasePort, lease: Lease, nowMs: number): Promise<boolean> {
  return port.run(async (q) => {
    const rows = await port.plainSql(q).rows(sql`UPDATE trip_plan SET gen_owner = NULL, gen_lease_until = NULL WHERE ${fenced(lease, nowMs)} RETURNING id`);
    return rows.length === 1;
  });
}
