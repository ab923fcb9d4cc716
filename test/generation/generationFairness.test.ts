// Generation fairness (openapi.yaml, startTripPlanGeneration, "Queue and fairness"): at most
// GENERATION_CONCURRENCY_PER_USER runs of one member at once, and members who wait take turns, so
// one member's twenty plans do not hold back another member's one. Checked by the order in which
// runs start, with a planner whose runs end only when the test says so.
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { createOfflinePlanner } from '../../src/generation/offline/offlinePlanner.js';
import type { Planner } from '../../src/generation/planner.js';
import { gatedPlanner, type GatedPlanner } from '../support/plannerStubs.js';
import { busanTrip, startTestApp, type TestApp } from '../support/testApp.js';
import { bodyOf } from '../support/responseBody.js';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

async function appWith(env: Record<string, string>): Promise<{ t: TestApp; planner: GatedPlanner }> {
  let inner!: Planner;
  const planner = gatedPlanner(() => inner);
  t = await startTestApp(env, { planner });
  inner = createOfflinePlanner({ db: t.app.services.db, delayMs: 0 });
  return { t, planner };
}

/** Creates and starts `count` one-day plans of a member; returns their ids in start order. */
async function startPlans(t: TestApp, email: string, count: number): Promise<number[]> {
  const { accessToken: token } = await t.signIn(email);
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const { tripPlanId } = bodyOf(await t.request('POST', '/api/v1/trips', { token, body: { ...busanTrip, duration: 1 } }), 'createTripPlanSession', 201).data;
    expect((await t.request('POST', `/api/v1/trips/${tripPlanId}`, { token })).status).toBe(200);
    ids.push(tripPlanId);
  }
  return ids;
}

describe('generation queue fairness', () => {
  it('GENERATION_CONCURRENCY_PER_USER defaults to 2', () => {
    expect(loadConfig({}).generationConcurrencyPerUser).toBe(2);
  });

  it('a member with one plan is not stuck behind another member’s twenty: it starts at the first free slot', async () => {
    const { t, planner } = await appWith({ GENERATION_CONCURRENCY: '2' });
    const busy = await startPlans(t, 'twenty@example.com', 20);
    const [single] = await startPlans(t, 'one@example.com', 1);
    await expect.poll(() => t.app.worker.stats()).toMatchObject({ running: 2, queued: 19 });
    expect(planner.started).toEqual([busy[0], busy[1]]);

    planner.finish(busy[0]!);
    await planner.waitForStarts(3);
    expect(planner.started[2]).toBe(single);

    for (const id of [...busy, single!]) planner.finish(id);
    await t.app.worker.idle();
    expect(planner.started).toEqual([busy[0], busy[1], single, ...busy.slice(2)]);
    expect(await t.app.worker.stats()).toMatchObject({ completed: 21, failed: 0 });
  });

  it('at most GENERATION_CONCURRENCY_PER_USER runs of one member at once, even with free slots', async () => {
    const { t, planner } = await appWith({ GENERATION_CONCURRENCY: '4', GENERATION_CONCURRENCY_PER_USER: '2' });
    const [a1, a2, a3] = await startPlans(t, 'a@example.com', 3);
    await planner.waitForStarts(2);
    const [b1] = await startPlans(t, 'b@example.com', 1);
    await planner.waitForStarts(3);
    expect(planner.started).toEqual([a1, a2, b1]);
    expect(await t.app.worker.stats()).toMatchObject({ running: 3, queued: 1 });

    planner.finish(b1!);
    await expect.poll(() => t.app.worker.stats()).toMatchObject({ running: 2, queued: 1, completed: 1 });
    planner.finish(a1!);
    await planner.waitForStarts(4);
    expect(planner.started[3]).toBe(a3);
    for (const id of [a2!, a3!]) planner.finish(id);
    await t.app.worker.idle();
  });

  it('members who wait take turns: round-robin, each member’s plans in the order they were started', async () => {
    const { t, planner } = await appWith({ GENERATION_CONCURRENCY: '1', GENERATION_CONCURRENCY_PER_USER: '1' });
    const a = await startPlans(t, 'ra@example.com', 3);
    const b = await startPlans(t, 'rb@example.com', 2);
    const c = await startPlans(t, 'rc@example.com', 1);
    await planner.waitForStarts(1);
    for (let n = 1; n <= 6; n++) {
      planner.finish(planner.started[n - 1]!);
      if (n < 6) await planner.waitForStarts(n + 1);
    }
    await t.app.worker.idle();
    expect(planner.started).toEqual([a[0], b[0], c[0], a[1], b[1], a[2]]);
  });
});
