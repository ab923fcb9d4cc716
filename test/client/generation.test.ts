// generate() of the client against the real server (HTTP and STOMP on a loopback port, the planner
// gated so the test decides when each day is made): the call order asyncapi.yaml asks for (start
// only once the three SUBSCRIBEs have their RECEIPTs), every day once and in order, the outcome read
// from the run's end, an abort that cancels, and a token that expires in the middle of the stream.
import { afterEach, expect, it } from 'vitest';
import { connectRealtime, generate, type RealtimeConnection } from '../../client/src/realtime/index.js';
import { createOfflinePlanner } from '../../src/generation/offline/offlinePlanner.js';
import type { Planner } from '../../src/generation/planner.js';
import { gatedPlanner, type GatedPlanner } from '../support/plannerStubs.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { operationCaller, planOf, recordingWebSocket, sessionOn, startGeneration, until, wsUrl, type Session } from './realtimeServers.js';

const stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

async function serverWithGatedPlanner(env: Record<string, string> = {}): Promise<{ server: TestServer; planner: GatedPlanner }> {
  let inner!: Planner;
  const planner = gatedPlanner(() => inner);
  const server = await startTestServer(env, { planner });
  inner = createOfflinePlanner({ db: server.app.services.db, delayMs: 0 });
  stops.push(async () => {
    for (const tripPlanId of planner.started) planner.finish(tripPlanId);
    await server.stop();
  });
  return { server, planner };
}

async function connect(server: TestServer, session: Session, options: { heartbeatMs?: number } = {}) {
  const recording = recordingWebSocket();
  const connection: RealtimeConnection = await connectRealtime({
    url: wsUrl(server.url),
    webSocket: recording.WebSocket,
    accessToken: () => session.accessToken(),
    reissue: () => session.reissue(),
    callOperation: operationCaller(server, session),
    reconnectDelayMs: 50,
    ...options,
  });
  stops.push(() => connection.close());
  return { connection, commands: recording.commands };
}

/** What generate() handed over: the day numbers of the schedule's days, and the chat's positions and kinds. */
function watched() {
  const days: number[] = [];
  const chat: { at: string; kind: string; complete: boolean }[] = [];
  return {
    days,
    chat,
    handlers: {
      onDay: (m: { type: string; dailyPlan?: { dayNumber: number } }) => m.dailyPlan && days.push(m.dailyPlan.dayNumber),
      onChat: (m: { messageStreamType: string; isComplete: boolean }, p: { epoch: string; offset: number } | null) =>
        chat.push({ at: `${p?.epoch}:${p?.offset}`, kind: m.messageStreamType, complete: m.isComplete }),
    },
  };
}

it('streams a whole generation: start only after the three RECEIPTs, every day once and in order, then completed', async () => {
  const { server, planner } = await serverWithGatedPlanner();
  const session = await sessionOn(server, 'whole@example.com');
  const plan = await planOf(server, session);
  const { connection, commands } = await connect(server, session);
  const seen = watched();
  let receiptsWhenStarted = -1;

  const outcome = await generate(
    connection,
    plan,
    {
      start: async () => {
        receiptsWhenStarted = commands.filter((c) => c === 'RECEIPT').length;
        expect(receiptsWhenStarted, 'RECEIPTs when start was called').toBe(3);
        planner.finish(plan.tripPlanId);
        await startGeneration(server, session, plan.tripPlanId);
      },
      cancel: () => startGeneration(server, session, plan.tripPlanId, 'cancel'),
    },
    seen.handlers,
  );

  expect(receiptsWhenStarted).toBe(3);
  expect(outcome).toBe('completed');
  expect(seen.days).toEqual([1, 2, 3]);
  expect(seen.chat.filter((c) => c.kind === 'CHAT' && c.complete)).toHaveLength(3);
  expect(seen.chat.at(-1)?.kind).toBe('COMPLETED');
  expect(new Set(seen.chat.map((c) => c.at)).size).toBe(seen.chat.length);
});

it('an abort in the middle of the run cancels it and resolves cancelled', async () => {
  const { server, planner } = await serverWithGatedPlanner();
  const session = await sessionOn(server, 'abort@example.com');
  const plan = await planOf(server, session);
  const { connection } = await connect(server, session);
  const seen = watched();
  const controller = new AbortController();
  let cancels = 0;

  const outcome = await generate(
    connection,
    plan,
    {
      start: async () => {
        planner.step(plan.tripPlanId);
        await startGeneration(server, session, plan.tripPlanId);
      },
      cancel: () => (cancels++, startGeneration(server, session, plan.tripPlanId, 'cancel')),
    },
    { ...seen.handlers, onDay: (m) => (seen.handlers.onDay(m), controller.abort()), signal: controller.signal },
  );

  expect(outcome).toBe('cancelled');
  expect(cancels).toBe(1);
  expect(seen.days).toEqual([1]);
  const saved = await server.request<{ data: { generationStatus: string } }>('GET', `/api/v1/trips/${plan.tripPlanId}`, { token: session.token() });
  expect(saved.body.data.generationStatus).toBe('CANCELLED');
});

it('an access token that expires in the middle of the stream is reissued; the stream resumes with every day once', async () => {
  // The token lives a minute of the server's clock; the run's lease outlives the jump past it.
  const { server, planner } = await serverWithGatedPlanner({ ACCESS_TOKEN_TTL_SECONDS: '60', GENERATION_LEASE_MS: '600000' });
  let plan!: { tripPlanId: number; chatRoomId: number };
  // While the client waits for its new token, the run saves and sends day 2: only a resume can bring it.
  const session = await sessionOn(server, 'reissue@example.com', {
    beforeReissue: async () => {
      planner.step(plan.tripPlanId);
      expect(await planner.paused(plan.tripPlanId)).toBe(2);
    },
  });
  plan = await planOf(server, session);
  // Heart-beats are judged by the server's clock too: without them only the token's expiry ends the connection.
  const { connection, commands } = await connect(server, session, { heartbeatMs: 0 });
  const seen = watched();
  const errors: (string | null)[] = [];
  connection.on('disconnected', (e) => errors.push(e.errorCode));
  // Once the three subscriptions are live again, the run goes on to its end.
  const resumed = until(() => commands.filter((c) => c === 'RECEIPT').length === 6, 'the three SUBSCRIBEs of the new connection have their RECEIPTs').then(() =>
    planner.finish(plan.tripPlanId),
  );

  const outcome = await generate(
    connection,
    plan,
    {
      start: async () => {
        planner.step(plan.tripPlanId);
        await startGeneration(server, session, plan.tripPlanId);
      },
      cancel: () => startGeneration(server, session, plan.tripPlanId, 'cancel'),
    },
    {
      ...seen.handlers,
      onDay: (m) => {
        seen.handlers.onDay(m);
        if (seen.days.length === 1) server.advance(61_000);
      },
    },
  );

  await resumed;
  expect(errors).toEqual(['WS002']);
  expect(session.reissues).toBe(1);
  expect(outcome).toBe('completed');
  expect(seen.days).toEqual([1, 2, 3]);
  expect(seen.chat.filter((c) => c.kind === 'CHAT' && c.complete)).toHaveLength(3);
  expect(new Set(seen.chat.map((c) => c.at)).size).toBe(seen.chat.length);
  expect(commands.filter((c) => c === 'CONNECTED')).toHaveLength(2);
});
