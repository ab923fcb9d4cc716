// Redis restarts in the middle of a generation run and comes back empty (no persistence): the days
// written before the restart are gone from the plan log. A late `x-replay: all` subscriber must
// hear `x-recovered: false` (then the messages that follow), whether it comes before the run's
// next message or after the run. One that followed the run live cannot know whether a message came
// while its instance was cut from Redis (a run's last one would leave nothing later to show it): it
// is told (ERROR WS110), resumes with x-since (not recovered) and gets the rest, every day once.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dayOf, silentGaps } from '../support/logContinuity.js';
import { describeOnPostgresWithOwnRedis } from '../support/ownRedis.js';
import { startInstancesOnOwnRedis, type InstancesOnOwnRedis } from '../support/instancesOnOwnRedis.js';
import type { ReceivedMessage } from '../support/stompTestClient.js';

const isCompleted = (m: ReceivedMessage) => (m.body as { messageStreamType?: string } | undefined)?.messageStreamType === 'COMPLETED';

describeOnPostgresWithOwnRedis('Redis restarted in the middle of a run, empty', () => {
  let t: InstancesOnOwnRedis;
  beforeAll(async () => {
    t = await startInstancesOnOwnRedis();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('a late x-replay: all subscriber gets x-recovered: false and the rest; a live one every day once, in order', async () => {
    const plan = await t.planOf('restart-mid-run@example.com');
    const live = await t.connect(t.a, plan.token);
    for (const destination of [plan.schedule, plan.errors, plan.chat]) await live.subscribe(destination);
    expect((await t.b.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token: plan.token })).status).toBe(200);
    t.planner.step(plan.tripPlanId);
    t.planner.step(plan.tripPlanId);
    expect(await t.planner.paused(plan.tripPlanId)).toBe(2);
    await live.waitFor((m) => dayOf(m) === 2);

    await t.redis.stop();
    await t.redis.start();
    await Promise.all([t.readiness(t.a, 200), t.readiness(t.b, 200)]);

    // Before the run's next message: the log is empty, but it is not a log that never had one.
    const early = await t.connect(t.a, plan.token);
    expect.soft(await early.subscribeReplaying(plan.schedule, { 'x-replay': 'all' })).toMatchObject({ recovered: 'false' });
    await early.subscribe(plan.errors);

    const planLogOf = (messages: ReceivedMessage[]) => messages.filter((m) => m.destination === plan.schedule || m.destination === plan.errors);
    expect((await live.waitForError(10_000)).headers['error-code']).toBe('WS110');
    const since = (m: ReceivedMessage | undefined) => ({ 'x-since': `${m!.headers['x-epoch']}:${m!.headers['x-offset']}` });
    const resumed = await t.connect(t.b, plan.token);
    const lastOfPlanLog = since(planLogOf(live.messages).at(-1));
    for (const destination of [plan.schedule, plan.errors])
      expect(await resumed.subscribeReplaying(destination, lastOfPlanLog)).toMatchObject({ recovered: 'false' });
    const lastOfChat = since(live.messages.filter((m) => m.destination === plan.chat).at(-1));
    expect(await resumed.subscribeReplaying(plan.chat, lastOfChat)).toMatchObject({ recovered: 'false' });

    t.planner.finish(plan.tripPlanId);
    await resumed.waitFor(isCompleted, 20_000);
    const seen = [...planLogOf(live.messages), ...planLogOf(resumed.messages)];
    expect(seen.map(dayOf)).toEqual([1, 2, 3]);
    expect(silentGaps(seen, null, 3)).toEqual([]);
    await early.waitFor((m) => dayOf(m) === 3);
    expect(planLogOf(early.messages).map(dayOf)).toEqual([3]);

    // After the run: only day 3 is left in the log, which is not the whole run.
    const late = await t.connect(t.a, plan.token);
    for (const destination of [plan.schedule, plan.chat])
      expect.soft(await late.subscribeReplaying(destination, { 'x-replay': 'all' })).toMatchObject({ recovered: 'false' });
    expect(late.messages).toEqual([]);
  });
});
