// A generation run that starts while Redis is down: its first days are saved in PostgreSQL, but
// their messages cannot be written to Redis, which then comes back empty (a restart without
// persistence). A subscriber from before the run must not take the days that follow for the whole
// run, nor wait for messages that were lost: it is told (ERROR WS110), and when it subscribes
// again it is not recovered and the epoch of the days that follow says that the run's start is
// missing; a late replay says not recovered.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { continuation, dayOf, silentGaps } from '../support/logContinuity.js';
import { describeOnPostgresWithOwnRedis } from '../support/ownRedis.js';
import { startInstancesOnOwnRedis, type InstancesOnOwnRedis } from '../support/instancesOnOwnRedis.js';
import type { ReceivedMessage } from '../support/stompTestClient.js';

const isCompleted = (m: ReceivedMessage) => (m.body as { messageStreamType?: string } | undefined)?.messageStreamType === 'COMPLETED';

describeOnPostgresWithOwnRedis('a run whose first days could not be written to Redis, which came back empty', () => {
  let t: InstancesOnOwnRedis;
  beforeAll(async () => {
    t = await startInstancesOnOwnRedis();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('a subscriber from before the run is told that days 1 and 2 are missing, and a late x-replay: all is not recovered', async () => {
    const plan = await t.planOf('lost-at-run-start@example.com');
    const watcher = await t.connect(t.a, plan.token);
    for (const destination of [plan.schedule, plan.errors, plan.chat]) await watcher.subscribe(destination);

    await t.redis.stop();
    await t.readiness(t.b, 503);
    expect((await t.b.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token: plan.token })).status).toBe(200);
    t.planner.step(plan.tripPlanId);
    t.planner.step(plan.tripPlanId);
    expect(await t.planner.paused(plan.tripPlanId)).toBe(2);
    await t.b.app.services.publishers.settled();

    await t.redis.start();
    await Promise.all([t.readiness(t.a, 200), t.readiness(t.b, 200)]);
    expect((await watcher.waitForError(10_000)).headers['error-code']).toBe('WS110');
    const resumed = await t.connect(t.a, plan.token);
    for (const destination of [plan.schedule, plan.errors, plan.chat])
      expect(await resumed.subscribeReplaying(destination, { 'x-replay': 'all' })).toMatchObject({ recovered: 'false' });
    t.planner.finish(plan.tripPlanId);
    await resumed.waitFor(isCompleted, 20_000);
    expect(watcher.messages).toEqual([]);

    const planLog = resumed.messages.filter((m) => m.destination === plan.schedule || m.destination === plan.errors);
    expect(planLog.map(dayOf)).toEqual([3]);
    expect(silentGaps(planLog, null, 3)).toEqual([]);
    // The chat lost the summaries of days 1 and 2: its first message says so too.
    const chat = resumed.messages.filter((m) => m.destination === plan.chat);
    expect(continuation(chat, null)[0]).toBe(false);

    const late = await t.connect(t.a, plan.token);
    for (const destination of [plan.schedule, plan.chat])
      expect(await late.subscribeReplaying(destination, { 'x-replay': 'all' })).toMatchObject({ recovered: 'false' });
    expect(late.messages).toEqual([]);
  });
});
