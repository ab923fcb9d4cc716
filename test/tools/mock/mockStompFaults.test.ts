// The STOMP faults a client asks the mock for with `x-mock-fault` (docs/mock.md, Faults), each over
// a real socket with @stomp/stompjs: a dropped connection, a new epoch in the middle of a run, a
// message sent twice, a history trimmed away. Each affects only the connection, subscription or
// run that asked, so clients in parallel do not disturb each other; the service ignores the header.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jsonAt } from '../../../conformance/specModel/index.js';
import { startMockServer, type RunningMock } from '../../../tools/mock/mockServer.js';
import { frameProblems } from '../../support/documentedFrames.js';
import { connectStomp, wsUrl, type ConnectOptions, type ReceivedMessage, type StompTestClient } from '../../support/stompTestClient.js';
import { busanTrip } from '../../support/testApp.js';
import { startTestServer, type TestServer } from '../../support/testServer.js';

const token = 'mock-fault-token';
const clients: StompTestClient[] = [];
let m: RunningMock;

beforeAll(async () => {
  m = await startMockServer(0, '127.0.0.1', { NODE_ENV: 'test', LOG_LEVEL: 'silent', MOCK_STREAM_DELAY_MS: '0' });
});
afterEach(async () => {
  const used = clients.splice(0);
  await Promise.all(used.map((c) => c.disconnect()));
  for (const c of used) expect(c.frames.flatMap(frameProblems)).toEqual([]);
});
afterAll(() => m.close());

async function connect(url: string, options: ConnectOptions = {}, as = token): Promise<StompTestClient> {
  const c = await connectStomp(wsUrl(url), as, options);
  clients.push(c);
  return c;
}

const start = (tripPlanId: number, fault?: string) =>
  fetch(`${m.url}/api/v1/trips/${tripPlanId}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, ...(fault && { 'x-mock-fault': fault }) } });

const isEnd = (msg: ReceivedMessage) => jsonAt(msg.body, 'messageStreamType') === 'COMPLETED';
const position = (msg: ReceivedMessage) => ({ epoch: msg.headers['x-epoch'], offset: Number(msg.headers['x-offset']) });

/** The whole run of a plan, as a client without faults sees it on its chat channel. */
async function watchedRun(tripPlanId: number, fault?: string): Promise<ReceivedMessage[]> {
  const c = await connect(m.url);
  await c.subscribe(`/user/sub/chat/${tripPlanId}`);
  expect((await start(tripPlanId, fault)).status).toBe(200);
  await c.waitFor(isEnd);
  await m.mock.generation.idle();
  return c.messages;
}

describe('mock STOMP faults: drop-after', () => {
  it('drops the connection that asked, on CONNECT, right after its k-th MESSAGE: no ERROR frame, no close handshake; a client beside it gets the whole run', async () => {
    const dropped = await connect(m.url, { connectHeaders: { 'x-mock-fault': 'drop-after=3' } });
    const beside = await connect(m.url);
    for (const c of [dropped, beside]) for (const channel of ['schedule', 'chat']) await c.subscribe(`/user/sub/${channel}/31`);
    expect((await start(31)).status).toBe(200);
    await beside.waitFor(isEnd);
    expect((await dropped.closed).code).toBe(1006);
    expect(dropped.messages).toHaveLength(3);
    expect(dropped.errors).toEqual([]);
    expect(dropped.messages.map((msg) => msg.raw)).toEqual(beside.messages.slice(0, 3).map((msg) => msg.raw));
    expect(beside.messages.length).toBeGreaterThan(3);
  });

  it('counts the messages of one subscription when asked on SUBSCRIBE', async () => {
    const c = await connect(m.url);
    await c.subscribe('/user/sub/schedule/32');
    await c.subscribe('/user/sub/chat/32', { headers: { 'x-mock-fault': 'drop-after=2' } });
    expect((await start(32)).status).toBe(200);
    await c.closed;
    expect(c.messages.map((msg) => msg.destination)).toEqual(['/user/sub/schedule/32', '/user/sub/chat/32', '/user/sub/chat/32']);
  });

  it('with an id and times, drops only the first connections that carry it: a reconnect with the same header stays', async () => {
    const fault = { 'x-mock-fault': 'drop-after=1; id=reconnect-33; times=1' };
    const first = await connect(m.url, { connectHeaders: fault });
    await first.subscribe('/user/sub/chat/33');
    const again = await connect(m.url, { connectHeaders: fault });
    await again.subscribe('/user/sub/chat/33');
    expect((await start(33)).status).toBe(200);
    await again.waitFor(isEnd);
    expect((await first.closed).code).toBe(1006);
    expect(first.messages).toHaveLength(1);
  });
});

describe('mock STOMP faults: new-epoch-after, on the start request', () => {
  it("begins a new epoch after the run's k-th message, past offset 1, as when another instance takes a run over; x-since from before it is not recovered", async () => {
    // The run's messages: schedule DAILY_PLAN_GENERATED first, then the chat's; the takeover follows message 2.
    const chat = (await watchedRun(34, 'new-epoch-after=2')).map(position);
    const [before, ...after] = chat;
    expect(before).toEqual({ epoch: expect.any(String) as unknown, offset: 1 });
    expect(after.length).toBeGreaterThan(1);
    expect(new Set(after.map((p) => p.epoch))).toEqual(new Set([after[0]!.epoch]));
    expect(after[0]!.epoch).not.toBe(before!.epoch);
    expect(after.map((p) => p.offset)).toEqual(after.map((_p, i) => i + 2));

    const resumed = await connect(m.url);
    expect(await resumed.subscribeReplaying('/user/sub/chat/34', { 'x-since': `${before!.epoch}:1` })).toMatchObject({ recovered: 'false' });
  });

  it('leaves a run started without it in one epoch from offset 1', async () => {
    const chat = (await watchedRun(35)).map(position);
    expect(new Set(chat.map((p) => p.epoch)).size).toBe(1);
    expect(chat.map((p) => p.offset)).toEqual(chat.map((_p, i) => i + 1));
  });
});

describe('mock STOMP faults: duplicate', () => {
  it('sends the k-th MESSAGE of the connection twice, the same frame (message-id, x-epoch, x-offset, body)', async () => {
    const c = await connect(m.url, { connectHeaders: { 'x-mock-fault': 'duplicate=2' } });
    await c.subscribe('/user/sub/chat/36');
    const plain = await connect(m.url);
    await plain.subscribe('/user/sub/chat/36');
    expect((await start(36)).status).toBe(200);
    await c.waitFor(isEnd);
    await plain.waitFor(isEnd);
    expect(c.messages).toHaveLength(plain.messages.length + 1);
    expect(c.messages[2]).toEqual(c.messages[1]);
    expect(c.messages[1]!.headers['message-id']).toBe(c.messages[2]!.headers['message-id']);
    expect(c.messages.filter((_msg, i) => i !== 2).map((msg) => msg.raw)).toEqual(plain.messages.map((msg) => msg.raw));
  });
});

describe('mock STOMP faults: trim-history', () => {
  it('answers a resume of that subscription x-recovered: false with nothing replayed, while the same resume without it is recovered', async () => {
    const run = await watchedRun(37);
    const since = `${run[0]!.headers['x-epoch']}:1`;
    const trimmed = await connect(m.url);
    expect(await trimmed.subscribeReplaying('/user/sub/chat/37', { 'x-since': since }, { headers: { 'x-mock-fault': 'trim-history' } })).toMatchObject({
      recovered: 'false',
    });
    const whole = await connect(m.url);
    expect(await whole.subscribeReplaying('/user/sub/chat/37', { 'x-since': since })).toMatchObject({ recovered: 'true' });
    await whole.waitFor(isEnd);
    expect(whole.messages.map((msg) => msg.raw)).toEqual(run.slice(1).map((msg) => msg.raw));
    expect(trimmed.messages).toEqual([]);
  });
});

describe('mock STOMP faults: the header itself', () => {
  it('refuses a setting it does not know, or one sent where it does not apply, with ERROR WS102 naming what it takes', async () => {
    const unknown = await connect(m.url, { connectHeaders: { 'x-mock-fault': 'explode=1' } });
    expect(unknown.errors.map((e) => [e.headers['error-code'], e.headers.message])).toEqual([
      ['WS102', expect.stringMatching(/drop-after, duplicate, id, times/)],
    ]);
    const c = await connect(m.url);
    await expect(c.subscribe('/user/sub/chat/38', { headers: { 'x-mock-fault': 'drop-after=0' } })).rejects.toThrow(/WS102/);
    expect(c.errors[0]?.headers.message).toMatch(/drop-after takes a count from 1/);
  });

  describe('the service', () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer({ PLANNER_DELAY_MS: '1' });
    });
    afterAll(() => s.stop());

    it('ignores x-mock-fault on CONNECT and SUBSCRIBE, as every header asyncapi.yaml does not document: nothing is dropped or refused', async () => {
      const { accessToken } = await s.signIn('mock-fault@example.com');
      const plan = (await s.request<{ data: { tripPlanId: number; chatRoomId: number } }>('POST', '/api/v1/trips', { token: accessToken, body: busanTrip }))
        .body.data;
      const c = await connect(s.url, { connectHeaders: { 'x-mock-fault': 'drop-after=1; explode' } }, accessToken);
      expect(c.connected).toBe(true);
      await c.subscribe(`/user/sub/chat/${plan.chatRoomId}`, { headers: { 'x-mock-fault': 'drop-after=1; duplicate=1; trim-history' } });
      expect((await s.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token: accessToken })).status).toBe(200);
      await c.waitFor(isEnd, 20_000);
      expect(c.errors).toEqual([]);
      const ids = c.messages.map((msg) => msg.headers['message-id']);
      expect(new Set(ids).size).toBe(ids.length);
    });
  });
});
