// The STOMP limits of asyncapi.yaml (server `stomp`, Limits): subscriptions per connection (WS105),
// one subscription per destination per connection (WS106), connections per member (WS107) and
// bytes waiting for a client that stopped reading (WS108). Beyond a limit: ERROR, then close.
import { jsonAt } from '../../conformance/specModel/index.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { busanTrip } from '../support/testApp.js';
import { openRawStomp, type RawStompSocket } from '../support/rawStompSocket.js';
import { connectStomp, wsUrl, type StompTestClient } from '../support/stompTestClient.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { bodyOf } from '../support/responseBody.js';

const servers: TestServer[] = [];
const sockets: RawStompSocket[] = [];
const clients: StompTestClient[] = [];

async function server(env: Record<string, string> = {}): Promise<TestServer> {
  const s = await startTestServer(env);
  servers.push(s);
  return s;
}

async function raw(s: TestServer, token: string): Promise<RawStompSocket> {
  const socket = await openRawStomp(s.url, token);
  sockets.push(socket);
  return socket;
}

async function memberWithPlans(s: TestServer, email: string, count: number) {
  const tokens = await s.signIn(email);
  const plans: { tripPlanId: number; chatRoomId: number }[] = [];
  for (let i = 0; i < count; i++)
    plans.push(bodyOf(await s.request('POST', '/api/v1/trips', { token: tokens.accessToken, body: busanTrip }), 'createTripPlanSession', 201).data);
  const memberId = bodyOf(await s.request('GET', '/api/v1/members/me', { token: tokens.accessToken }), 'getMe', 200).data.id;
  return { ...tokens, memberId, plans };
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  await Promise.all(clients.splice(0).map((c) => c.disconnect()));
});
afterAll(async () => {
  for (const s of servers.splice(0)) await s.stop();
});

describe('STOMP limits', () => {
  it('has the documented defaults: 100 subscriptions, 20 connections per member, 8 MiB unread', () => {
    expect(loadConfig({}).stomp).toMatchObject({ maxSubscriptionsPerConnection: 100, maxConnectionsPerUser: 20, maxPendingBytes: 8 * 1024 * 1024 });
  });

  it('one subscription per destination per connection: 10,000 SUBSCRIBEs to one destination end at the second with ERROR WS106', async () => {
    const s = await server();
    const member = await memberWithPlans(s, 'flood@example.com', 1);
    const socket = await raw(s, member.accessToken);
    const destination = `/user/sub/chat/${member.plans[0]!.chatRoomId}`;
    for (let i = 0; i < 10_000 && socket.socket.readyState === socket.socket.OPEN; i++) socket.subscribe(`s${i}`, destination, `r${i}`);
    expect(await socket.receiptOrClose('r1')).toBe('closed');
    expect(await socket.closed).toBe(1008);
    expect(socket.errorCode()).toBe('WS106');
    expect(socket.frames.filter((f) => f.command === 'RECEIPT').map((f) => f.headers['receipt-id'])).toEqual(['r0']);
    expect(s.app.broker.size()).toBe(0);
  });

  it('one SEND reaches a connection once, however often it tried to subscribe', async () => {
    const s = await server();
    const member = await memberWithPlans(s, 'fanout@example.com', 1);
    const { chatRoomId } = member.plans[0]!;
    const c = await connectStomp(wsUrl(s.url), member.accessToken);
    clients.push(c);
    await c.subscribe(`/user/sub/chat/${chatRoomId}`);
    await expect(c.subscribe(`/user/sub/chat/${chatRoomId}`)).rejects.toThrow(/WS106/);
    const fresh = await connectStomp(wsUrl(s.url), member.accessToken);
    clients.push(fresh);
    await fresh.subscribe(`/user/sub/chat/${chatRoomId}`);
    await fresh.send(`/pub/chat/${chatRoomId}/message`, JSON.stringify({ content: 'hello' }));
    const answer = await fresh.waitFor((m) => jsonAt(m.body, 'isComplete') === true);
    expect(fresh.messages.filter((m) => jsonAt(m.body, 'message') === jsonAt(answer.body, 'message') && jsonAt(m.body, 'isComplete') === true)).toHaveLength(1);
  });

  it('subscriptions per connection (STOMP_MAX_SUBSCRIPTIONS_PER_CONNECTION): one more is ERROR WS105 and nothing is subscribed', async () => {
    const s = await server({ STOMP_MAX_SUBSCRIPTIONS_PER_CONNECTION: '4' });
    const member = await memberWithPlans(s, 'many@example.com', 2);
    const destinations = member.plans.flatMap((p) => [
      `/user/sub/schedule/${p.tripPlanId}`,
      `/user/sub/chat/${p.chatRoomId}`,
      `/user/sub/errors/${p.chatRoomId}`,
    ]);
    const socket = await raw(s, member.accessToken);
    destinations.slice(0, 4).forEach((d, i) => socket.subscribe(`s${i}`, d, `r${i}`));
    await socket.waitFor((f) => f.headers['receipt-id'] === 'r3');
    expect(s.app.broker.size()).toBe(4);
    socket.subscribe('s4', destinations[4]!, 'r4');
    expect(await socket.receiptOrClose('r4')).toBe('closed');
    expect(await socket.closed).toBe(1008);
    expect(socket.errorCode()).toBe('WS105');
    expect(socket.frames.some((f) => f.headers['receipt-id'] === 'r4' && f.command === 'RECEIPT')).toBe(false);
    expect(s.app.broker.size()).toBe(0);
  });

  it('unsubscribing frees a place under the subscription limit', async () => {
    const s = await server({ STOMP_MAX_SUBSCRIPTIONS_PER_CONNECTION: '1' });
    const member = await memberWithPlans(s, 'cycle@example.com', 1);
    const { tripPlanId, chatRoomId } = member.plans[0]!;
    const socket = await raw(s, member.accessToken);
    socket.subscribe('a', `/user/sub/schedule/${tripPlanId}`, 'r1');
    socket.send('UNSUBSCRIBE\nid:a\n\n\0');
    socket.subscribe('b', `/user/sub/chat/${chatRoomId}`, 'r2');
    await socket.waitFor((f) => f.headers['receipt-id'] === 'r2');
    expect(socket.errorCode()).toBeUndefined();
  });

  it('STOMP connections per member (STOMP_MAX_CONNECTIONS_PER_USER, default 20): the 21st is ERROR WS107, others are unaffected', async () => {
    const s = await server();
    const member = await memberWithPlans(s, 'tabs@example.com', 0);
    const open: RawStompSocket[] = [];
    for (let i = 0; i < 20; i++) open.push(await raw(s, member.accessToken));
    expect(open.every((socket) => socket.frames[0]?.command === 'CONNECTED')).toBe(true);

    const extra = await raw(s, member.accessToken);
    expect(extra.errorCode()).toBe('WS107');
    expect(await extra.closed).toBe(1008);

    const other = await memberWithPlans(s, 'someone-else@example.com', 0);
    expect((await raw(s, other.accessToken)).frames[0]?.command).toBe('CONNECTED');

    open[0]!.close();
    await open[0]!.closed;
    await expect.poll(() => s.app.stomp.live.countOf(member.memberId)).toBe(19);
    expect((await raw(s, member.accessToken)).frames[0]?.command).toBe('CONNECTED');
  });

  it('bytes waiting for a client that stopped reading (STOMP_MAX_PENDING_BYTES): ERROR WS108, then close 1013', async () => {
    const s = await server({ STOMP_MAX_PENDING_BYTES: String(64 * 1024) });
    const member = await memberWithPlans(s, 'slow@example.com', 1);
    const { chatRoomId } = member.plans[0]!;
    const socket = await raw(s, member.accessToken);
    socket.subscribe('s', `/user/sub/chat/${chatRoomId}`, 'r');
    await socket.waitFor((f) => f.headers['receipt-id'] === 'r');
    // The client stops reading; the server keeps publishing (40 MB, more than any socket buffers).
    (socket.socket as unknown as { _socket: import('node:net').Socket })._socket.pause();
    const text = 'x'.repeat(20_000);
    const published = 2000;
    for (let i = 0; i < published; i++) {
      s.app.publishers.chat(member.memberId, chatRoomId, {
        message: text,
        isComplete: false,
        timestamp: new Date(s.now()).toISOString(),
        messageStreamType: 'CHAT',
      });
      if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    (socket.socket as unknown as { _socket: import('node:net').Socket })._socket.resume();
    expect(await socket.closed).toBe(1013);
    expect(socket.errorCode()).toBe('WS108');
    expect(socket.frames.filter((f) => f.command === 'MESSAGE').length).toBeLessThan(published);
  });
});
