// The client across two instances of the service on one PostgreSQL database and one Redis
// (test/support/instancesOnOwnRedis.ts: A only serves clients, B runs the generations with a gated
// planner). The client watches a generation on A; A drops its connections in the middle of the run,
// the run goes on on B while the client is away, and the client comes back on B (options.url is a
// function): it resumes with x-since and gets every day and every chat message exactly once, then
// the completion. When Redis lost the logs meanwhile, the resume is told instead: notRecovered,
// with the plan's state read again, and the run is still followed to its end.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectRealtime, generate, type ContinuityLostEvent, type RealtimeConnection } from '../../client/src/realtime/index.js';
import { startInstancesOnOwnRedis, type InstancesOnOwnRedis } from '../support/instancesOnOwnRedis.js';
import { describeOnPostgresWithOwnRedis, freePort } from '../support/ownRedis.js';
import { operationCaller, planOf, recordingWebSocket, sessionOn, startGeneration, until, wsUrl } from './realtimeServers.js';

describeOnPostgresWithOwnRedis('the client across two instances', () => {
  let cluster: InstancesOnOwnRedis;
  beforeAll(async () => {
    cluster = await startInstancesOnOwnRedis();
  });
  afterAll(() => cluster?.stop());

  /** A member's plan, and a client of it connected to A; `target` says where its next (re)connect goes. */
  async function watchOnA(email: string) {
    const session = await sessionOn(cluster.b, email);
    const plan = await planOf(cluster.b, session);
    const where = { target: wsUrl(cluster.a.url) };
    const recording = recordingWebSocket();
    const connection: RealtimeConnection = await connectRealtime({
      url: () => where.target,
      webSocket: recording.WebSocket,
      accessToken: () => session.accessToken(),
      reissue: () => session.reissue(),
      callOperation: operationCaller(cluster.b, session),
      reconnectDelayMs: 50,
      refetch: true,
    });
    const connectedTo: string[] = [];
    connection.on('connected', (e) => connectedTo.push(e.url));
    const days: number[] = [];
    const chat: { epoch: string; offset: number; kind: string; complete: boolean }[] = [];
    const lost: ContinuityLostEvent[] = [];
    const outcome = generate(
      connection,
      plan,
      { start: () => startGeneration(cluster.b, session, plan.tripPlanId), cancel: () => startGeneration(cluster.b, session, plan.tripPlanId, 'cancel') },
      {
        onDay: (m) => 'dailyPlan' in m && days.push(m.dailyPlan.dayNumber),
        onChat: (m, p) => chat.push({ epoch: p!.epoch, offset: p!.offset, kind: m.messageStreamType, complete: m.isComplete }),
        onContinuityLost: (e) => lost.push(e),
      },
    );
    const receipts = () => recording.commands.filter((c) => c === 'RECEIPT').length;
    return { plan, where, connection, connectedTo, days, chat, lost, outcome, receipts };
  }

  /** Day `day` and its whole summary reached the client. */
  const hasDay = (w: Awaited<ReturnType<typeof watchOnA>>, day: number) =>
    w.days.includes(day) && w.chat.filter((c) => c.kind === 'CHAT' && c.complete).length >= day;

  it('dropped on A in the middle of the run, it resumes on B: every day and chat message exactly once, then completed', async () => {
    const w = await watchOnA('failover@example.com');
    const { tripPlanId } = w.plan;
    cluster.planner.step(tripPlanId);
    expect(await cluster.planner.paused(tripPlanId)).toBe(1);
    await until(() => hasDay(w, 1), 'day 1 and its summary on A');

    // A drops the client, whose next attempts find nobody until B is its target; meanwhile B makes day 2.
    w.where.target = `ws://127.0.0.1:${await freePort()}/ws-stomp`;
    cluster.a.app.stomp.closeAll();
    cluster.planner.step(tripPlanId);
    expect(await cluster.planner.paused(tripPlanId)).toBe(2);
    w.where.target = wsUrl(cluster.b.url);
    await until(() => w.receipts() === 6, 'the three subscriptions live again, on B');
    cluster.planner.finish(tripPlanId);

    expect(await w.outcome).toBe('completed');
    // (the connection to A was made before anyone listened)
    expect(w.connectedTo).toEqual([wsUrl(cluster.b.url)]);
    expect(w.days).toEqual([1, 2, 3]);
    // The chat room's log is the chat channel's alone: its offsets are every message of it, once, in order.
    expect(new Set(w.chat.map((c) => c.epoch)).size).toBe(1);
    expect(w.chat.map((c) => c.offset)).toEqual(w.chat.map((_, i) => i + 1));
    expect(w.chat.filter((c) => c.kind === 'CHAT' && c.complete)).toHaveLength(3);
    expect(w.chat.at(-1)?.kind).toBe('COMPLETED');
    expect(w.lost).toEqual([]);
    await w.connection.close();
  });

  it('when Redis lost the logs while the client was away, the resume on B is told notRecovered with the saved days, and the run is followed to its end', async () => {
    const w = await watchOnA('lost-logs@example.com');
    const { tripPlanId } = w.plan;
    cluster.planner.step(tripPlanId);
    expect(await cluster.planner.paused(tripPlanId)).toBe(1);
    await until(() => hasDay(w, 1), 'day 1 and its summary on A');

    w.where.target = `ws://127.0.0.1:${await freePort()}/ws-stomp`;
    cluster.a.app.stomp.closeAll();
    await cluster.redis.stop();
    await cluster.redis.start();
    await cluster.readiness(cluster.b, 200);
    cluster.planner.step(tripPlanId);
    expect(await cluster.planner.paused(tripPlanId)).toBe(2);
    w.where.target = wsUrl(cluster.b.url);
    await until(() => w.lost.some((e) => e.log === 'tripPlan'), 'the plan log told');
    cluster.planner.finish(tripPlanId);

    expect(await w.outcome).toBe('completed');
    expect(w.days).toEqual([1, 3]);
    const told = w.lost.find((e) => e.log === 'tripPlan')!;
    expect(['notRecovered', 'errorFrame']).toContain(told.reason);
    const listed = told.refetched?.find((r) => r.operationId === 'listDailyPlans');
    expect(listed?.ok && (listed.value as { dayNumber: number }[]).map((d) => d.dayNumber)).toEqual([1, 2]);
    // Nothing was given twice, and each loss was told once.
    expect(new Set(w.chat.map((c) => `${c.epoch}:${c.offset}`)).size).toBe(w.chat.length);
    expect(new Set(w.lost.map((e) => e.loss)).size).toBe(w.lost.length);
    await w.connection.close();
  });
});
