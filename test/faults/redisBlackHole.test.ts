// A black-hole partition between one instance and Redis: packets dropped, nothing reset, so the
// connection still looks open. A client of that instance subscribes during it, while another
// instance runs a whole generation. Once the link heals, the client gets every message of the run
// exactly once and in order (or is told what it missed), then the live messages: a subscription
// made while the link was silent is one made while Redis was away.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { continuation, dayOf, silentGaps } from '../support/logContinuity.js';
import { describeOnPostgresWithOwnRedis } from '../support/ownRedis.js';
import { startInstancesOnOwnRedis, type InstancesOnOwnRedis } from '../support/instancesOnOwnRedis.js';
import type { ReceivedMessage } from '../support/stompTestClient.js';

const typeOf = (m: ReceivedMessage) => {
  const body = m.body as { messageStreamType?: string; type?: string } | undefined;
  return body?.type ?? body?.messageStreamType;
};

describeOnPostgresWithOwnRedis('one instance black-holed from Redis', () => {
  let t: InstancesOnOwnRedis;
  beforeAll(async () => {
    t = await startInstancesOnOwnRedis();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('a SUBSCRIBE made during it gets, once the link heals, what another instance appended meanwhile, once and in order, then the live messages', async () => {
    const plan = await t.planOf('black-hole@example.com');
    const watcher = await t.connect(t.a, plan.token);

    t.proxyA.blackHole();
    // A replaying one may answer x-recovered: false (the history cannot be read now); plain ones get their RECEIPT too.
    const replay = await watcher.subscribeReplaying(plan.schedule, { 'x-replay': 'all' }, { timeoutMs: 20_000 });
    expect(['true', 'false']).toContain(replay.recovered);
    await watcher.subscribe(plan.errors, { timeoutMs: 20_000 });
    await watcher.subscribe(plan.chat, { timeoutMs: 20_000 });

    expect((await t.b.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token: plan.token })).status).toBe(200);
    t.planner.finish(plan.tripPlanId);
    await expect
      .poll(
        async () =>
          (await t.b.request<{ data: { generationStatus: string } }>('GET', `/api/v1/trips/${plan.tripPlanId}`, { token: plan.token })).body.data
            .generationStatus,
        {
          timeout: 20_000,
          interval: 100,
        },
      )
      .toBe('COMPLETED');
    await t.b.app.services.publishers.settled();
    t.proxyA.restore();

    await watcher.waitFor((m) => typeOf(m) === 'COMPLETED', 20_000);
    const planLog = () => watcher.messages.filter((m) => m.destination === plan.schedule || m.destination === plan.errors);
    const chat = () => watcher.messages.filter((m) => m.destination === plan.chat);
    expect(planLog().map(dayOf)).toEqual([1, 2, 3]);
    expect(silentGaps(planLog(), null, 3)).toEqual([]);
    expect(continuation(chat(), null).every(Boolean)).toBe(true);

    // After the heal, live messages follow on.
    await t.readiness(t.a, 200);
    const swap = await t.b.request('PATCH', `/api/v1/trips/${plan.tripPlanId}/daily-plans/1/scheduled-places`, {
      token: plan.token,
      body: { chatRoomId: plan.chatRoomId, visitOrderA: 1, visitOrderB: 2 },
    });
    expect(swap.status).toBe(204);
    await watcher.waitFor((m) => m.destination === plan.schedule && typeOf(m) === 'UPDATED');
    expect(planLog().map(typeOf)).toEqual(['DAILY_PLAN_GENERATED', 'DAILY_PLAN_GENERATED', 'DAILY_PLAN_GENERATED', 'UPDATE_STARTED', 'UPDATED']);
    expect(continuation(planLog(), null).every(Boolean)).toBe(true);
  }, 60_000);
});
