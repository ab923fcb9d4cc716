// The chat message limit of a member is one count over every instance (REDIS_URL): two instances
// on one PostgreSQL database and one Redis, a member chatting on both, refused with CHAT103 once the
// messages on A and B together reach CHAT_MESSAGES_PER_MINUTE; another member is not affected.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jsonAt } from '../../conformance/specModel/index.js';
import { freshPostgresDatabase, type FreshPostgresDatabase } from '../support/postgres.js';
import { describeOnRedis, redisForTests } from '../support/redis.js';
import { bodyOf } from '../support/responseBody.js';
import { connectStomp, wsUrl, type StompTestClient } from '../support/stompTestClient.js';
import { busanTrip } from '../support/testApp.js';
import { startTestServer, type TestServer } from '../support/testServer.js';

async function readyWithin(server: TestServer, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let status = 0;
  while (Date.now() < deadline) {
    status = (await server.request('GET', '/readyz')).status;
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(status, `GET /readyz on ${server.url} within ${timeoutMs} ms`).toBe(200);
}

describeOnRedis('the chat message limit across two instances (REDIS_URL)', () => {
  let database: FreshPostgresDatabase;
  let a: TestServer;
  let b: TestServer;
  const clients: StompTestClient[] = [];

  beforeAll(async () => {
    database = await freshPostgresDatabase({ migrated: true });
    // Keys carry the fresh database's identity, so the shared Redis database needs no flush; they expire within a minute.
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: redisForTests.available ? redisForTests.url : '',
      CHAT_MESSAGES_PER_MINUTE: '4',
      REALTIME_HISTORY_TTL_SECONDS: '60',
    };
    [a, b] = await Promise.all([startTestServer(env), startTestServer(env)]);
    // Ready means the limits' Redis connection is up: before it, each instance would count alone.
    // It comes up a moment after the start, so wait for it (bounded) rather than expect it at once.
    for (const server of [a, b]) await readyWithin(server, 15_000);
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.disconnect()));
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
  });

  async function chatOn(server: TestServer, token: string, chatRoomId: number) {
    const client = await connectStomp(wsUrl(server.url), token);
    clients.push(client);
    await client.subscribe(`/user/sub/errors/${chatRoomId}`);
    return {
      client,
      say: (content: string) => client.send(`/pub/chat/${chatRoomId}/message`, JSON.stringify({ content })),
      refusals: () => client.messages.filter((m) => m.destination.startsWith('/user/sub/errors/')).map((m) => jsonAt(m.body, 'code')),
    };
  }

  it('counts the messages of a member on A and on B together, and not those of another member', async () => {
    const { accessToken: token } = await a.signIn('chatty@example.com');
    const plan = bodyOf(await a.request('POST', '/api/v1/trips', { token, body: busanTrip }), 'createTripPlanSession', 201).data;
    const [onA, onB] = [await chatOn(a, token, plan.chatRoomId), await chatOn(b, token, plan.chatRoomId)];
    for (const [i, side] of [onA, onB, onA, onB].entries()) await side.say(`message ${i}`);
    expect([...onA.refusals(), ...onB.refusals()]).toEqual([]);

    await onB.say('one too many, on B');
    await onA.say('one too many, on A');
    await onB.client.waitFor((m) => jsonAt(m.body, 'code') === 'CHAT103');
    await onA.client.waitFor((m) => jsonAt(m.body, 'code') === 'CHAT103');
    await Promise.all([a.app.chat.idle(), b.app.chat.idle()]);
    const history = bodyOf(await b.request('GET', `/api/v1/chats/${plan.chatRoomId}/messages`, { token, query: { size: 50 } }), 'listChatMessages', 200).data
      .content;
    expect(history.filter((m) => m.messageType === 'USER').map((m) => m.content)).toEqual(['message 3', 'message 2', 'message 1', 'message 0']);

    const other = await b.signIn('quiet@example.com');
    const otherPlan = bodyOf(await b.request('POST', '/api/v1/trips', { token: other.accessToken, body: busanTrip }), 'createTripPlanSession', 201).data;
    const quiet = await chatOn(a, other.accessToken, otherPlan.chatRoomId);
    await quiet.say('hello');
    expect(quiet.refusals()).toEqual([]);
  });
});
