// Generation jobs across two real server processes on one PostgreSQL database (docs/design/scale-out.md,
// "Generation jobs on the plan row"): a process killed with SIGKILL mid-run leaves a lease that runs out, and
// the other process fails the plan with AI002 (GENERATION_TAKEOVER=fail) or finishes it with each
// day saved once (resume); restarting one process never touches the job the other one runs. Short
// lease settings make takeovers quick; every wait polls for an outcome with a generous limit, none
// asserts a duration.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { connectStomp, wsUrl } from '../support/stompTestClient.js';
import { busanTrip } from '../support/testApp.js';
import { describeOnPostgres, freshPostgresDatabase, type FreshPostgresDatabase } from '../support/postgres.js';
import { ensureFreshBuild } from '../support/freshBuild.js';
import { exitOf, lineOf, spawnBuiltService } from '../support/serviceProcess.js';

const HANG_LIMIT_MS = 60_000;
const POLL = { timeout: HANG_LIMIT_MS, interval: 100 };
const QUICK_LEASES = { GENERATION_LEASE_MS: '2000', GENERATION_HEARTBEAT_MS: '400', GENERATION_SWEEP_MS: '250', GENERATION_POLL_MS: '100' };

interface Instance {
  child: ChildProcess;
  url: string;
}

let fresh: FreshPostgresDatabase;
let dataDir: string;
let db: pg.Client | undefined;
const children: ChildProcess[] = [];

beforeAll(ensureFreshBuild, 2 * HANG_LIMIT_MS);
beforeEach(async () => {
  // Migrated already (a copy of the run's template): what is tested here starts after the migrations.
  fresh = await freshPostgresDatabase({ migrated: true });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-two-'));
});

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await db?.end().catch(() => undefined);
  db = undefined;
  await fresh?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function startInstance(env: Record<string, string>): Promise<Instance> {
  const child = spawnBuiltService({
    DATABASE_URL: fresh.url,
    JWT_SECRET: 'two-processes-share-this-secret-0123456789',
    DATA_DIR: dataDir,
    PORT: '0',
    // Each day streams its summary in chunks this far apart: a run lasts long enough to be killed mid-way.
    PLANNER_DELAY_MS: '80',
    ...QUICK_LEASES,
    ...env,
  });
  children.push(child);
  const listening = await lineOf(child, /"msg":"listening/, HANG_LIMIT_MS);
  return { child, url: `http://127.0.0.1:${(JSON.parse(listening) as { port: number }).port}` };
}

async function call<T = unknown>(base: string, method: string, route: string, token?: string, body?: unknown): Promise<{ status: number; data: T }> {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, data: ((await res.json()) as { data: T }).data };
}

async function signIn(base: string, email: string): Promise<string> {
  return (await call<{ accessToken: string }>(base, 'POST', '/api/v1/auth/dev-login', undefined, { email })).data.accessToken;
}

async function row(tripPlanId: number) {
  db ??= await connected();
  const { rows } = await db.query<{ status: string; failure: string | null; owner: string | null; attempt: number }>(
    'SELECT generation_status AS status, failure_code AS failure, gen_owner AS owner, gen_attempt AS attempt FROM trip_plan WHERE id = $1',
    [tripPlanId],
  );
  return rows[0]!;
}

async function days(tripPlanId: number): Promise<{ id: number; day: number }[]> {
  db ??= await connected();
  return (await db.query<{ id: number; day: number }>('SELECT id, day_number AS day FROM daily_plan WHERE trip_plan_id = $1 ORDER BY day_number', [tripPlanId]))
    .rows;
}

async function connected(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: fresh.url });
  await client.connect();
  return client;
}

/** A plan started on `on`, once a day of it is saved by its owner. */
async function runningPlan(on: Instance, email: string) {
  const token = await signIn(on.url, email);
  const plan = (await call(on.url, 'POST', '/api/v1/trips', token, busanTrip)).data as { tripPlanId: number; chatRoomId: number };
  expect((await call(on.url, 'POST', `/api/v1/trips/${plan.tripPlanId}`, token)).status).toBe(200);
  await vi.waitFor(async () => expect((await days(plan.tripPlanId)).length).toBeGreaterThanOrEqual(1), POLL);
  return { ...plan, token };
}

describeOnPostgres('generation jobs across two server processes', { timeout: 4 * HANG_LIMIT_MS }, () => {
  it('kill -9 of the process running a generation: the other one fails it with AI002 once the lease runs out', async () => {
    // B claims no generation (the plan is A's whenever B is up), so the two may start together.
    const [a, b] = await Promise.all([startInstance({}), startInstance({ GENERATION_CONCURRENCY: '0' })]);
    const plan = await runningPlan(a, 'killed@example.com');
    const client = await connectStomp(wsUrl(b.url), plan.token);
    await client.subscribe(`/user/sub/errors/${plan.chatRoomId}`);
    const owner = (await row(plan.tripPlanId)).owner;
    expect(owner).toMatch(/:\d+:/);

    a.child.kill('SIGKILL');
    const error = await client.waitFor((m) => m.destination === `/user/sub/errors/${plan.chatRoomId}`, HANG_LIMIT_MS);
    expect(error.body).toMatchObject({ code: 'AI002' });
    expect(await row(plan.tripPlanId)).toMatchObject({ status: 'FAILED', failure: 'AI002', owner: null });
    expect((await call<{ generationStatus: string }>(b.url, 'GET', `/api/v1/trips/${plan.tripPlanId}`, plan.token)).data.generationStatus).toBe('FAILED');
    await client.disconnect();
  });

  it('kill -9 with GENERATION_TAKEOVER=resume: the other process finishes the run, each day saved once, the saved ones kept', async () => {
    const a = await startInstance({ GENERATION_TAKEOVER: 'resume' });
    const plan = await runningPlan(a, 'resumed@example.com');
    // B starts only now, so A is the one that claimed the job; its resumed run need not be slow.
    const b = await startInstance({ GENERATION_TAKEOVER: 'resume', PLANNER_DELAY_MS: '0' });
    const before = await days(plan.tripPlanId);
    a.child.kill('SIGKILL');

    await vi.waitFor(async () => expect((await row(plan.tripPlanId)).status).toBe('COMPLETED'), POLL);
    expect((await row(plan.tripPlanId)).attempt).toBe(2);
    const after = await days(plan.tripPlanId);
    expect(after.map((d) => d.day)).toEqual([1, 2, 3]);
    expect(after.slice(0, before.length)).toEqual(before);
    expect((await call(b.url, 'GET', `/api/v1/trips/daily-plans/${plan.tripPlanId}`, plan.token)).data).toHaveLength(3);
  });

  it('restarting one process does not touch the job the other one runs', async () => {
    // A's run must outlast two starts of B even on a loaded machine: slow summaries keep it going
    // (about 14 s; B's starts of the built service took 5 s together at a load of 15 on 2 cores).
    const a = await startInstance({ PLANNER_DELAY_MS: '150' });
    const plan = await runningPlan(a, 'untouched@example.com');
    let b = await startInstance({});
    b.child.kill('SIGTERM');
    expect((await exitOf(b.child, HANG_LIMIT_MS)).code).toBe(0);
    b = await startInstance({});
    expect(await row(plan.tripPlanId)).toMatchObject({ status: 'GENERATING', attempt: 1 });

    await vi.waitFor(async () => expect((await row(plan.tripPlanId)).status).toBe('COMPLETED'), POLL);
    expect(await row(plan.tripPlanId)).toMatchObject({ attempt: 1, failure: null });
    expect((await days(plan.tripPlanId)).map((d) => d.day)).toEqual([1, 2, 3]);
    b.child.kill('SIGTERM');
    a.child.kill('SIGTERM');
  });
});
