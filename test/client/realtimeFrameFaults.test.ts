// Faults only a proxy between the client and the real server can make (test/support/stompFrameProxy.ts):
// a MESSAGE that never arrives, which leaves a gap in its log's offsets; and an ERROR WS110 (the server
// learnt that messages of a subscribed log may be lost) in place of a message, after the run's first
// message was lost too. Each is told once per log, and what can still be had is had once.
import { afterEach, expect, it } from 'vitest';
import { connectRealtime, generate, type ContinuityLostEvent } from '../../client/src/realtime/index.js';
import { createOfflinePlanner } from '../../src/generation/offline/offlinePlanner.js';
import type { Planner } from '../../src/generation/planner.js';
import { gatedPlanner } from '../support/plannerStubs.js';
import { headerValue, startStompFrameProxy, type FrameRewrite } from '../support/stompFrameProxy.js';
import { startTestServer } from '../support/testServer.js';
import { operationCaller, planOf, recordingWebSocket, sessionOn, startGeneration, until, wsUrl } from './realtimeServers.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A server with a gated planner, a member's plan, and generate() of it through a proxy that rewrites the first connection's frames. */
async function generationThroughProxy(email: string, firstConnection: (frame: string, closeUpstream: () => void) => string | null) {
  let inner!: Planner;
  const planner = gatedPlanner(() => inner);
  const server = await startTestServer({}, { planner });
  inner = createOfflinePlanner({ db: server.app.services.db, delayMs: 0 });
  cleanups.push(async () => {
    for (const tripPlanId of planner.started) planner.finish(tripPlanId);
    await server.stop();
  });
  let connections = 0;
  const proxy = await startStompFrameProxy(wsUrl(server.url), (): FrameRewrite => {
    const first = ++connections === 1;
    return { toClient: (frame) => (first ? firstConnection(frame, () => setImmediate(() => server.app.stomp.closeAll())) : frame) };
  });
  cleanups.push(() => proxy.close());
  const session = await sessionOn(server, email);
  const plan = await planOf(server, session);
  const recording = recordingWebSocket();
  const connection = await connectRealtime({
    url: `${proxy.url}/ws-stomp`,
    webSocket: recording.WebSocket,
    accessToken: () => session.accessToken(),
    reissue: () => session.reissue(),
    callOperation: operationCaller(server, session),
    reconnectDelayMs: 50,
  });
  cleanups.push(() => connection.close());
  const days: number[] = [];
  const chat: string[] = [];
  const lost: ContinuityLostEvent[] = [];
  const outcome = generate(
    connection,
    plan,
    { start: () => startGeneration(server, session, plan.tripPlanId), cancel: () => startGeneration(server, session, plan.tripPlanId, 'cancel') },
    {
      onDay: (m) => 'dailyPlan' in m && days.push(m.dailyPlan.dayNumber),
      onChat: (_m, p) => chat.push(`${p?.epoch}:${p?.offset}`),
      onContinuityLost: (e) => lost.push(e),
      refetch: true,
    },
  );
  return { planner, plan, days, chat, lost, outcome, receipts: () => recording.commands.filter((c) => c === 'RECEIPT').length };
}

const isMessageOn = (frame: string, channel: 'schedule' | 'chat') =>
  frame.startsWith('MESSAGE\n') && (headerValue(frame, 'destination') ?? '').includes(`/${channel}/`);

it('a MESSAGE that never arrives leaves a gap in its log: told once as offsetGap, with the chat read again', async () => {
  const g = await generationThroughProxy('gap@example.com', (frame) => (isMessageOn(frame, 'chat') && headerValue(frame, 'x-offset') === '3' ? null : frame));
  g.planner.finish(g.plan.tripPlanId);

  expect(await g.outcome).toBe('completed');
  expect(g.days).toEqual([1, 2, 3]);
  expect(g.lost.map((e) => [e.log, e.reason])).toEqual([['chatRoom', 'offsetGap']]);
  expect(g.lost[0]!.refetched?.map((r) => [r.operationId, r.ok])).toEqual([['listChatMessages', true]]);
  expect(g.chat.map((at) => Number(at.split(':')[1])).slice(0, 3)).toEqual([1, 2, 4]);
});

it("an ERROR WS110 after the run's first message was lost: the resume brings both back once, and each log is told errorFrame", async () => {
  const ERROR_WS110 = 'ERROR\nerror-code:WS110\nmessage:Messages may have been lost.\ncontent-type:text/plain\n\nMessages may have been lost.\0';
  let dropped = false;
  const g = await generationThroughProxy('error-frame@example.com', (frame, closeUpstream) => {
    // Day 1 never comes on this connection; day 1's whole summary is replaced by the ERROR, and the server closes.
    if (isMessageOn(frame, 'schedule') && !dropped) return ((dropped = true), null);
    if (isMessageOn(frame, 'chat') && frame.includes('"isComplete":true')) return (closeUpstream(), ERROR_WS110);
    return frame;
  });
  g.planner.step(g.plan.tripPlanId);
  await until(() => g.receipts() === 6, 'the three subscriptions live again');
  g.planner.finish(g.plan.tripPlanId);

  expect(await g.outcome).toBe('completed');
  expect(g.days).toEqual([1, 2, 3]);
  expect(new Set(g.chat).size).toBe(g.chat.length);
  expect(g.chat.map((at) => Number(at.split(':')[1]))).toEqual(g.chat.map((_, i) => i + 1));
  expect(g.lost.map((e) => [e.log, e.reason]).sort()).toEqual([
    ['chatRoom', 'errorFrame'],
    ['tripPlan', 'errorFrame'],
  ]);
});
