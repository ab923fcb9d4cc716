// Two swaps of disjoint stops of one day, sent at the same moment, both acknowledged: both are in
// the saved day (or one was refused with a documented 4xx and is not). Through two instances on
// one PostgreSQL database, and through one instance on SQLite and on PostgreSQL. Every day edit
// runs in one transaction that locks the plan row before it reads the day (trips/savedDayEdits.ts),
// so the second swap reads the day the first one saved.
import { afterEach, describe, expect, it } from 'vitest';
import { isWellFormed, placesOf, planWithLongDay, savedDay, swapped, type Plan } from '../support/dayEditRounds.js';
import { describeOnPostgres, freshPostgresDatabase, type FreshPostgresDatabase } from '../support/postgres.js';
import { errorCodeOf } from '../support/responseBody.js';
import { startTestApp, type TestApp } from '../support/testApp.js';

const ROUNDS = 10;
/** Pairs of disjoint stops, one pair per instance (or per request) each round. */
const PAIRS: [number, number][][] = [
  [
    [1, 2],
    [3, 4],
  ],
  [
    [1, 3],
    [2, 4],
  ],
  [
    [1, 4],
    [5, 6],
  ],
];

const apps: TestApp[] = [];
let database: FreshPostgresDatabase | undefined;
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
  await database?.drop();
  database = undefined;
});

async function started(env: Record<string, string>, count: number): Promise<TestApp[]> {
  const started = await Promise.all(Array.from({ length: count }, () => startTestApp(env)));
  apps.push(...started);
  return started;
}

async function onFreshPostgres(count: number): Promise<TestApp[]> {
  database = await freshPostgresDatabase({ migrated: true });
  return started({ DATABASE_URL: database.url }, count);
}

const swap = (app: TestApp, token: string, plan: Plan, [visitOrderA, visitOrderB]: [number, number]) =>
  app.request('PATCH', `/api/v1/trips/${plan.tripPlanId}/daily-plans/1/scheduled-places`, {
    token,
    body: { chatRoomId: plan.chatRoomId, visitOrderA, visitOrderB },
  });

/** ROUNDS rounds of two concurrent swaps, the first through `first`, the second through `second`. */
async function concurrentSwapRounds(first: TestApp, second: TestApp): Promise<void> {
  const { accessToken: token } = await first.signIn('swapper@example.com');
  const plan = await planWithLongDay(first, token, 6);
  let places = placesOf(await savedDay(first, token, plan.tripPlanId));
  for (let round = 0; round < ROUNDS; round++) {
    const [pairA, pairB] = PAIRS[round % PAIRS.length] as [[number, number], [number, number]];
    const answers = await Promise.all([swap(first, token, plan, pairA), swap(second, token, plan, pairB)]);
    let expected = places;
    for (const [i, answer] of answers.entries()) {
      // 204, or a documented refusal that changed nothing; never a 500.
      expect([204, 409], `round ${round}: ${answer.status} ${answer.text}`).toContain(answer.status);
      if (answer.status === 409) expect(errorCodeOf(answer)).toBe('TRIP106');
      if (answer.status === 204) expected = swapped(expected, ...(i === 0 ? pairA : pairB));
    }
    const saved = await savedDay(second, token, plan.tripPlanId);
    expect(placesOf(saved), `round ${round}: both acknowledged swaps are in the saved day`).toEqual(expected);
    expect(isWellFormed(saved)).toBe(true);
    places = expected;
  }
}

describeOnPostgres('concurrent swaps of one day through two instances on one PostgreSQL database', () => {
  it('both acknowledged swaps are in the saved day, every round', async () => {
    const [a, b] = await onFreshPostgres(2);
    await concurrentSwapRounds(a!, b!);
  });
});

describe('concurrent swaps of one day through one instance (SQLite)', () => {
  it('both acknowledged swaps are in the saved day, every round', async () => {
    const [app] = await started({ DATABASE_URL: ':memory:' }, 1);
    await concurrentSwapRounds(app!, app!);
  });
});

describeOnPostgres('concurrent swaps of one day through one instance (PostgreSQL)', () => {
  it('both acknowledged swaps are in the saved day, every round', async () => {
    const [app] = await onFreshPostgres(1);
    await concurrentSwapRounds(app!, app!);
  });
});
