// Chat messages are limited per member (CHAT_MESSAGES_PER_MINUTE; asyncapi.yaml, server `stomp`):
// beyond the limit a SEND gets CHAT103 on the room's errors channel and its RECEIPT, nothing is
// stored and the chat agent (with the OpenAI agent, a paid call) never sees it; another member is
// not affected, and the next window takes messages again. (test/distributed/redisInstances.test.ts
// shows the limit shared by two instances through Redis.)
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonAt } from '../../conformance/specModel/index.js';
import type { ChatAgent, ChatTurn } from '../../src/chats/chatAgent.js';
import { bodyOf } from '../support/responseBody.js';
import { connectStomp, wsUrl, type StompTestClient } from '../support/stompTestClient.js';
import { busanTrip } from '../support/testApp.js';
import { startTestServer, type TestServer } from '../support/testServer.js';

const servers: TestServer[] = [];
const clients: StompTestClient[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(clients.splice(0).map((c) => c.disconnect()));
  for (const s of servers.splice(0)) await s.stop();
});

/** Answers every message, and remembers what it was asked. */
function listeningAgent(): ChatAgent & { heard: string[] } {
  const heard: string[] = [];
  return {
    name: 'listening',
    heard,
    decide: (turn: ChatTurn) => {
      heard.push(turn.content);
      return Promise.resolve({ edit: null, reply: `Heard: ${turn.content}` });
    },
  };
}

async function chatter(s: TestServer, email: string) {
  const { accessToken } = await s.signIn(email);
  const plan = bodyOf(await s.request('POST', '/api/v1/trips', { token: accessToken, body: busanTrip }), 'createTripPlanSession', 201).data;
  const client = await connectStomp(wsUrl(s.url), accessToken);
  clients.push(client);
  await client.subscribe(`/user/sub/chat/${plan.chatRoomId}`);
  await client.subscribe(`/user/sub/errors/${plan.chatRoomId}`);
  return {
    client,
    /** SEND, and wait for its RECEIPT */
    say: (content: string) => client.send(`/pub/chat/${plan.chatRoomId}/message`, JSON.stringify({ content })),
    refusals: () => client.messages.filter((m) => m.destination.startsWith('/user/sub/errors/')).map((m) => jsonAt(m.body, 'code')),
    async stored() {
      const page = bodyOf(
        await s.request('GET', `/api/v1/chats/${plan.chatRoomId}/messages`, { token: accessToken, query: { size: 50 } }),
        'listChatMessages',
        200,
      ).data;
      return page.content.filter((m) => m.messageType === 'USER').map((m) => m.content);
    },
  };
}

describe('chat messages per member (CHAT_MESSAGES_PER_MINUTE)', () => {
  it('beyond the limit a member gets CHAT103 and nothing is stored or asked; another member is served; the next minute takes messages again', async () => {
    const agent = listeningAgent();
    const s = await startTestServer({ CHAT_MESSAGES_PER_MINUTE: '3' }, { chatAgent: agent });
    servers.push(s);
    const [alice, bob] = [await chatter(s, 'alice@example.com'), await chatter(s, 'bob@example.com')];

    for (const content of ['one', 'two', 'three', 'four', 'five']) await alice.say(content);
    await alice.client.waitFor((m) => jsonAt(m.body, 'code') === 'CHAT103' && alice.refusals().length === 2);
    const refusal = alice.client.messages.find((m) => jsonAt(m.body, 'code') === 'CHAT103')!;
    expect(jsonAt(refusal.body, 'message')).toMatch(/^Too many chat messages \(at most 3 a minute\); the next one is taken in \d+ seconds\.$/);
    expect(jsonAt(refusal.body, 'path')).toMatch(/^\/pub\/chat\/\d+\/message$/);

    // Rooms answer independently: let alice's room answer all it took before bob's message arrives,
    // so the order the agent heard them in is the order they were said.
    await s.app.chat.idle();
    await bob.say('hello');
    await bob.client.waitFor((m) => jsonAt(m.body, 'message') === 'Heard: hello' && jsonAt(m.body, 'isComplete') === true);
    await s.app.chat.idle();
    expect(await alice.stored()).toEqual(['three', 'two', 'one']);
    expect(agent.heard).toEqual(['one', 'two', 'three', 'hello']);
    expect(bob.refusals()).toEqual([]);

    // A minute later by the host's clock, which the limit counts by (the service's clock goes along).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60_000, shouldAdvanceTime: true });
    s.advance(60_000);
    await alice.say('six');
    await alice.client.waitFor((m) => jsonAt(m.body, 'message') === 'Heard: six' && jsonAt(m.body, 'isComplete') === true);
    expect(alice.refusals()).toEqual(['CHAT103', 'CHAT103']);
  });

  it('is off under test unless set', async () => {
    const s = await startTestServer({}, { chatAgent: listeningAgent() });
    servers.push(s);
    const carol = await chatter(s, 'carol@example.com');
    for (let i = 0; i < 25; i++) await carol.say(`message ${i}`);
    await s.app.chat.idle();
    expect(carol.refusals()).toEqual([]);
    expect(s.config.chatMessagesPerMinute).toBe(0);
  });
});
