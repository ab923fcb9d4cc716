// The STOMP series of GET /metrics, through the real WebSocket endpoint: open connections and
// subscriptions, replaying SUBSCRIBEs by mode and the ones answered x-recovered: false (an epoch the
// log does not know), messages delivered per channel kind, and messages dropped for a client that
// stopped reading (slow consumer, WS108).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Socket } from 'node:net';
import { scrape } from '../support/prometheusScrape.js';
import { openRawStomp } from '../support/rawStompSocket.js';
import { bodyOf } from '../support/responseBody.js';
import { connectStomp, wsUrl, type ReceivedMessage } from '../support/stompTestClient.js';
import { busanTrip } from '../support/testApp.js';
import { startTestServer, type TestServer } from '../support/testServer.js';

const POLL = { timeout: 20_000, interval: 20 };
const isCompleted = (m: ReceivedMessage) => (m.body as { messageStreamType?: string } | undefined)?.messageStreamType === 'COMPLETED';

describe('STOMP metrics', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.stop();
  });

  it('connections, subscriptions, replays (x-recovered false counted) and delivered messages per channel', async () => {
    const { accessToken: token } = await s.signIn('stomp-metrics@example.com');
    const plan = (await s.request<{ data: { tripPlanId: number; chatRoomId: number } }>('POST', '/api/v1/trips', { token, body: busanTrip })).body.data;
    const client = await connectStomp(wsUrl(s.url), token);
    await client.subscribe(`/user/sub/schedule/${plan.tripPlanId}`);
    expect(await client.subscribeReplaying(`/user/sub/errors/${plan.chatRoomId}`, { 'x-since': 'an-epoch-nobody-knows:12' })).toMatchObject({
      recovered: 'false',
    });
    expect(await client.subscribeReplaying(`/user/sub/chat/${plan.chatRoomId}`, { 'x-replay': 'all' })).toMatchObject({ recovered: 'true' });

    const subscribed = await scrape(s);
    expect(subscribed.value('trip_stomp_connections')).toBe(1);
    expect(subscribed.value('trip_stomp_subscriptions')).toBe(3);
    expect(subscribed.value('trip_stomp_replay_requests_total', { mode: 'since' })).toBe(1);
    expect(subscribed.value('trip_stomp_replay_requests_total', { mode: 'all' })).toBe(1);
    expect(subscribed.value('trip_stomp_replay_unrecovered_total')).toBe(1);

    expect((await s.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token })).status).toBe(200);
    await client.waitFor(isCompleted, 20_000);
    const delivered = await scrape(s);
    const received = (prefix: string) => client.messages.filter((m) => m.destination.startsWith(prefix)).length;
    expect(delivered.value('trip_stomp_messages_delivered_total', { channel: 'schedule' })).toBe(received('/user/sub/schedule/'));
    expect(delivered.value('trip_stomp_messages_delivered_total', { channel: 'chat' })).toBe(received('/user/sub/chat/'));
    expect(received('/user/sub/schedule/'), 'one DAILY_PLAN_GENERATED per day').toBe(busanTrip.duration);
    expect(delivered.value('trip_stomp_messages_dropped_total')).toBe(0);

    await client.disconnect();
    await vi.waitFor(async () => {
      const closed = await scrape(s);
      expect([closed.value('trip_stomp_connections'), closed.value('trip_stomp_subscriptions')]).toEqual([0, 0]);
    }, POLL);
  });

  it('a client that stops reading: its messages are dropped (trip_stomp_messages_dropped_total), and it is disconnected', async () => {
    const slow = await startTestServer({ STOMP_MAX_PENDING_BYTES: String(64 * 1024) });
    try {
      const { accessToken: token } = await slow.signIn('slow-metrics@example.com');
      const { chatRoomId } = (await slow.request<{ data: { chatRoomId: number } }>('POST', '/api/v1/trips', { token, body: busanTrip })).body.data;
      const memberId = bodyOf(await slow.request('GET', '/api/v1/members/me', { token }), 'getMe', 200).data.id;
      const socket = await openRawStomp(slow.url, token);
      socket.subscribe('s', `/user/sub/chat/${chatRoomId}`, 'r');
      await socket.waitFor((f) => f.headers['receipt-id'] === 'r');
      // The client stops reading; the server keeps publishing (40 MB, more than any socket buffers), as in stompLimits.test.ts.
      const tcp = (socket.socket as unknown as { _socket: Socket })._socket;
      tcp.pause();
      const published = 2000;
      for (let i = 0; i < published; i++) {
        slow.app.publishers.chat(memberId, chatRoomId, {
          message: 'x'.repeat(20_000),
          isComplete: false,
          timestamp: new Date(slow.now()).toISOString(),
          messageStreamType: 'CHAT',
        });
        if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      tcp.resume();
      expect(await socket.closed).toBe(1013);
      const metrics = await scrape(slow);
      expect(metrics.value('trip_stomp_messages_dropped_total', { channel: 'chat' })).toBeGreaterThanOrEqual(1);
      expect(metrics.value('trip_stomp_messages_delivered_total', { channel: 'chat' })).toBeLessThan(published);
      await vi.waitFor(async () => expect((await scrape(slow)).value('trip_stomp_connections'), 'the server saw the close too').toBe(0), POLL);
    } finally {
      await slow.stop();
    }
  });
});
