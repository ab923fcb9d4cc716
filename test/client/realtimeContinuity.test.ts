// A loss the client cannot see in the offsets: the server (its plan logs in memory) restarts while
// the client is away, so the history its subscriptions resume from is gone. The RECEIPTs of the
// resuming SUBSCRIBEs say x-recovered: false, and each log followed is told once, to every
// subscription of it and to the connection, with its state read again over HTTP (refetch).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  connectRealtime,
  type ChannelParameters,
  type ContinuityLostEvent,
  type RealtimeConnection,
  type ReceivableChannel,
} from '../../client/src/realtime/index.js';
import { freePort } from '../support/ownRedis.js';
import { freshPostgresDatabase } from '../support/postgres.js';
import { testEngine } from '../support/testDatabase.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { operationCaller, planOf, sessionOn, startGeneration, until, wsUrl } from './realtimeServers.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A database that outlives a server: a SQLite file, or a PostgreSQL database of its own. */
async function lastingDatabase(): Promise<string> {
  if (testEngine === 'postgres') {
    const database = await freshPostgresDatabase({ migrated: true });
    cleanups.push(() => database.drop());
    return database.url;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-continuity-'));
  cleanups.push(() => fs.promises.rm(dir, { recursive: true, force: true }));
  return path.join(dir, 'trips.sqlite');
}

it('a server restarted while the client was away: each log is told notRecovered once, with its rebuildWith answers', async () => {
  const env = { DATABASE_URL: await lastingDatabase(), PLANNER_DELAY_MS: '0' };
  let server: TestServer = await startTestServer(env);
  cleanups.push(() => server.stop());
  const session = await sessionOn(server, 'restart@example.com');
  const plan = await planOf(server, session);
  let target = wsUrl(server.url);
  const connection: RealtimeConnection = await connectRealtime({
    url: () => target,
    webSocket: WebSocket,
    accessToken: () => session.accessToken(),
    reissue: () => session.reissue(),
    // Whichever server is up answers.
    callOperation: (operationId, parameters) => operationCaller(server, session)(operationId, parameters),
    reconnectDelayMs: 50,
    refetch: true,
  });
  cleanups.push(() => connection.close());
  const told: ContinuityLostEvent[] = [];
  connection.on('continuityLost', (event) => told.push(event));
  const byChannel = new Map<ReceivableChannel, ContinuityLostEvent[]>();
  const ended: string[] = [];
  const follow = <C extends ReceivableChannel>(channel: C, parameters: ChannelParameters<C>) =>
    connection.subscribe(
      channel,
      parameters,
      {
        onMessage: (payload) => {
          if ((payload as { messageStreamType?: string }).messageStreamType === 'COMPLETED') ended.push(channel);
        },
        onContinuityLost: (event) => byChannel.set(channel, [...(byChannel.get(channel) ?? []), event as unknown as ContinuityLostEvent]),
      },
      { scope: 'the plan' },
    );
  await follow('scheduleUpdates', { tripPlanId: plan.tripPlanId });
  await follow('chatStream', { chatRoomId: plan.chatRoomId });
  await follow('errors', { chatRoomId: plan.chatRoomId });
  await startGeneration(server, session, plan.tripPlanId);
  await until(() => ended.length === 1, 'the run completed');

  // Away: the client retries a port nobody answers while the server restarts on the same database.
  target = `ws://127.0.0.1:${await freePort()}/ws-stomp`;
  await server.stop();
  server = await startTestServer(env);
  target = wsUrl(server.url);
  await until(() => told.length === 2, 'both logs told');

  expect(told.map((e) => [e.log, e.reason]).sort()).toEqual([
    ['chatRoom', 'notRecovered'],
    ['tripPlan', 'notRecovered'],
  ]);
  const tripPlan = told.find((e) => e.log === 'tripPlan')!;
  expect(tripPlan.rebuildWith).toEqual(['getTripPlan', 'listDailyPlans']);
  expect(tripPlan.refetched?.map((r) => [r.operationId, r.ok])).toEqual([
    ['getTripPlan', true],
    ['listDailyPlans', true],
  ]);
  const [tripPlanState, days] = tripPlan.refetched!.map((r) => (r.ok ? r.value : null)) as [{ generationStatus: string }, { dayNumber: number }[]];
  expect(tripPlanState.generationStatus).toBe('COMPLETED');
  expect(days.map((d) => d.dayNumber)).toEqual([1, 2, 3]);
  const chatRoom = told.find((e) => e.log === 'chatRoom')!;
  expect(chatRoom.refetched?.map((r) => [r.operationId, r.ok])).toEqual([['listChatMessages', true]]);
  // Every subscription of a log hears of its loss, each copy with its own channel, the same loss.
  await until(() => byChannel.size === 3, 'each subscription told');
  expect(byChannel.get('scheduleUpdates')!.map((e) => [e.channel, e.loss])).toEqual([['scheduleUpdates', tripPlan.loss]]);
  expect(byChannel.get('errors')!.map((e) => [e.channel, e.loss])).toEqual([['errors', tripPlan.loss]]);
  expect(byChannel.get('chatStream')!.map((e) => [e.channel, e.loss])).toEqual([['chatStream', chatRoom.loss]]);
});
