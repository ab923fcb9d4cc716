// The embedded plan log (no REDIS_URL) lives in the process: a restart of the service forgets every
// log, while the plans and their days stay in the database. A client that comes back after the
// restart must not take an empty log for a whole one: its replay is not recovered, and the plan's
// next message begins an epoch past offset 1. A plan that never had a message replays whole.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { continuation, dayOf } from '../support/logContinuity.js';
import { connectStomp, wsUrl, type ReceivedMessage, type StompTestClient } from '../support/stompTestClient.js';
import { busanTrip } from '../support/testApp.js';
import { startTestServer, type TestServer } from '../support/testServer.js';

const typeOf = (m: ReceivedMessage) => {
  const body = m.body as { messageStreamType?: string; type?: string } | undefined;
  return body?.type ?? body?.messageStreamType;
};

describe('the embedded plan log across a restart of the service', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-embedded-restart-'));
  const env = { DATABASE_URL: path.join(dir, 'trips.sqlite') };
  const servers: TestServer[] = [];
  const clients: StompTestClient[] = [];
  const start = async () => {
    const server = await startTestServer(env);
    servers.push(server);
    return server;
  };
  const connect = async (server: TestServer, token: string) => {
    const client = await connectStomp(wsUrl(server.url), token);
    clients.push(client);
    return client;
  };
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.disconnect()));
    for (const server of servers) await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a replay after the restart is not recovered, and the next message of the plan starts past offset 1', async () => {
    const before = await start();
    const { accessToken: token } = await before.signIn('embedded-restart@example.com');
    const create = async (server: TestServer) =>
      (await server.request<{ data: { tripPlanId: number; chatRoomId: number } }>('POST', '/api/v1/trips', { token, body: busanTrip })).body.data;
    const plan = await create(before);
    const schedule = `/user/sub/schedule/${plan.tripPlanId}`;
    const watcher = await connect(before, token);
    await watcher.subscribe(schedule);
    await watcher.subscribe(`/user/sub/chat/${plan.chatRoomId}`);
    expect((await before.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token })).status).toBe(200);
    await watcher.waitFor((m) => typeOf(m) === 'COMPLETED', 20_000);
    expect(watcher.messages.map(dayOf).filter((day) => day !== null)).toEqual([1, 2, 3]);
    await watcher.disconnect();
    await before.stop();
    servers.splice(0);

    const after = await start();
    const late = await connect(after, token);
    expect(await late.subscribeReplaying(schedule, { 'x-replay': 'all' })).toMatchObject({ recovered: 'false' });
    expect(await late.subscribeReplaying(`/user/sub/chat/${plan.chatRoomId}`, { 'x-replay': 'all' })).toMatchObject({ recovered: 'false' });
    expect(late.messages).toEqual([]);

    // An edit after the restart: a new epoch whose start is visibly missing.
    const swap = await after.request('PATCH', `/api/v1/trips/${plan.tripPlanId}/daily-plans/1/scheduled-places`, {
      token,
      body: { chatRoomId: plan.chatRoomId, visitOrderA: 1, visitOrderB: 2 },
    });
    expect(swap.status).toBe(204);
    await late.waitFor((m) => m.destination === schedule && typeOf(m) === 'UPDATED');
    const edit = late.messages.filter((m) => m.destination === schedule);
    expect(edit.map((m) => m.headers['x-offset'])).toEqual(['2', '3']);
    expect(continuation(edit, null)).toEqual([false, true]);

    // A plan that never had a message replays whole: nothing.
    const fresh = await create(after);
    expect(await late.subscribeReplaying(`/user/sub/schedule/${fresh.tripPlanId}`, { 'x-replay': 'all' })).toMatchObject({ recovered: 'true' });
  });
});
