// The generation series of GET /metrics move when generations do: a completed run and its time to
// the first day, a job waiting for a claim, an expired lease swept by this instance (takeover), and
// a write refused because the run had lost its lease (fenced).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { claimGeneration } from '../../src/generation/generationLeases.js';
import { createOfflinePlanner } from '../../src/generation/offline/offlinePlanner.js';
import type { Planner } from '../../src/generation/planner.js';
import { cancelGeneration } from '../../src/trips/generationRequests.js';
import { gatedPlanner } from '../support/plannerStubs.js';
import { scrape } from '../support/prometheusScrape.js';
import { bodyOf } from '../support/responseBody.js';
import { busanTrip, startTestApp, type TestApp, type TestAppOptions } from '../support/testApp.js';

const POLL = { timeout: 20_000, interval: 20 };
let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

async function appWith(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  t = await startTestApp(env, options);
  return t;
}

/** Creates a plan of a new member and starts its generation; returns its id. */
async function startedPlan(app: TestApp, email: string): Promise<number> {
  const { accessToken: token } = await app.signIn(email);
  const { tripPlanId } = bodyOf(await app.request('POST', '/api/v1/trips', { token, body: busanTrip }), 'createTripPlanSession', 201).data;
  expect((await app.request('POST', `/api/v1/trips/${tripPlanId}`, { token })).status).toBe(200);
  return tripPlanId;
}

describe('generation metrics', () => {
  it('a generation moves trip_generations_total{outcome="completed"} and the first-day histogram; nothing runs after it', async () => {
    const app = await appWith();
    const before = await scrape(app);
    expect(before.value('trip_generations_total', { outcome: 'completed' })).toBe(0);
    expect(before.observations('trip_generation_first_day_seconds')).toBe(0);
    await startedPlan(app, 'completed@example.com');
    await vi.waitFor(async () => expect((await scrape(app)).value('trip_generations_total', { outcome: 'completed' })).toBe(1), POLL);
    const after = await scrape(app);
    expect(after.observations('trip_generation_first_day_seconds'), 'one run, one first day').toBe(1);
    expect(after.value('trip_generations_running')).toBe(0);
    expect(after.value('trip_generations_total', { outcome: 'failed' })).toBe(0);
  });

  it('a job nobody runs is waiting; an expired lease swept here moves trip_generation_lease_takeovers_total', async () => {
    // This instance runs nothing (GENERATION_CONCURRENCY=0) but sweeps, as every instance does.
    const app = await appWith({ GENERATION_CONCURRENCY: '0', GENERATION_LEASE_MS: '1000', GENERATION_HEARTBEAT_MS: '100', GENERATION_SWEEP_MS: '20' });
    const tripPlanId = await startedPlan(app, 'takeover@example.com');
    expect((await scrape(app)).value('trip_generations_waiting')).toBe(1);
    // Another instance claims it, then dies: its lease is live for a second, and nobody renews it.
    const claimed = await claimGeneration(app.app.services.db, {
      owner: 'an-instance-that-died',
      nowMs: app.now(),
      leaseMs: 1000,
      perMemberLimit: 2,
      runningHere: new Set(),
      lastStartedByMember: new Map(),
    });
    expect(claimed?.lease.tripPlanId).toBe(tripPlanId);
    const held = await scrape(app);
    expect(held.value('trip_generations_waiting'), 'a live lease is not waiting').toBe(0);
    expect(held.value('trip_generation_lease_takeovers_total')).toBe(0);
    app.advance(5000);
    await vi.waitFor(async () => expect((await scrape(app)).value('trip_generation_lease_takeovers_total')).toBe(1), POLL);
    expect((await scrape(app)).value('trip_generations_waiting'), 'failed (GENERATION_TAKEOVER=fail): no longer GENERATING').toBe(0);
  });

  it('a run whose lease went meanwhile is fenced: trip_generation_fenced_writes_total and outcome taken_over', async () => {
    let inner!: Planner;
    const planner = gatedPlanner(() => inner);
    const app = await appWith({}, { planner });
    inner = createOfflinePlanner({ db: app.app.services.db, delayMs: 0 });
    const tripPlanId = await startedPlan(app, 'fenced@example.com');
    expect(await planner.paused(tripPlanId)).toBe(0);
    expect((await scrape(app)).value('trip_generations_running')).toBe(1);
    // The job ends under the run's feet without its instance hearing of it (as when another
    // instance's cancel event is lost): the run's next write finds the lease gone.
    expect(await cancelGeneration(app.app.services.db, tripPlanId, app.now())).toBeDefined();
    planner.finish(tripPlanId);
    await vi.waitFor(async () => expect((await scrape(app)).value('trip_generations_total', { outcome: 'taken_over' })).toBe(1), POLL);
    const after = await scrape(app);
    expect(after.value('trip_generation_fenced_writes_total')).toBe(1);
    expect(after.value('trip_generations_running')).toBe(0);
    expect(after.observations('trip_generation_first_day_seconds'), 'no day was saved').toBe(0);
  });
});
