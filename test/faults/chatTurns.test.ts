// A room's chat messages are answered one at a time, in the order they were stored, across
// instances (chats/chatTurns.ts): a message sent through instance B while A is still answering an
// earlier one waits for it; and a turn whose holder stopped blocks the room only until its lease
// runs out, when a sweep takes it over and answers what waits.
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatAgent } from '../../src/chats/chatAgent.js';
import { until, type Plan } from '../support/dayEditRounds.js';
import { describeOnPostgres, freshPostgresDatabase, type FreshPostgresDatabase } from '../support/postgres.js';
import { bodyOf } from '../support/responseBody.js';
import { connectStomp, wsUrl, type ReceivedMessage, type StompTestClient } from '../support/stompTestClient.js';
import { busanTrip, type TestAppOptions } from '../support/testApp.js';
import { startTestServer, type TestServer } from '../support/testServer.js';

const databases: FreshPostgresDatabase[] = [];
const servers: TestServer[] = [];
const clients: StompTestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.disconnect()));
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  await Promise.all(databases.splice(0).map((d) => d.drop()));
});

async function serversOn(env: Record<string, string>, count: number, options: TestAppOptions = {}): Promise<TestServer[]> {
  const started = await Promise.all(Array.from({ length: count }, () => startTestServer(env, options)));
  servers.push(...started);
  return started;
}

async function freshPostgresUrl(): Promise<string> {
  const database = await freshPostgresDatabase({ migrated: true });
  databases.push(database);
  return database.url;
}

async function memberWithPlan(s: TestServer): Promise<{ token: string; plan: Plan }> {
  const { accessToken: token } = await s.signIn('talker@example.com');
  const plan = bodyOf(await s.request('POST', '/api/v1/trips', { token, body: busanTrip }), 'createTripPlanSession', 201).data;
  return { token, plan };
}

async function subscribedOn(s: TestServer, token: string, plan: Plan): Promise<StompTestClient> {
  const c = await connectStomp(wsUrl(s.url), token);
  clients.push(c);
  await c.subscribe(`/user/sub/chat/${plan.chatRoomId}`);
  await c.subscribe(`/user/sub/errors/${plan.chatRoomId}`);
  return c;
}

const say = (c: StompTestClient, plan: Plan, content: string) => c.send(`/pub/chat/${plan.chatRoomId}/message`, JSON.stringify({ content }));
const isAnswer = (m: ReceivedMessage) => m.destination.includes('/chat/') && (m.body as { isComplete?: boolean }).isComplete === true;

async function assistantAnswers(s: TestServer, token: string, plan: Plan): Promise<string[]> {
  const page = bodyOf(await s.request('GET', `/api/v1/chats/${plan.chatRoomId}/messages`, { token, query: { size: 100 } }), 'listChatMessages', 200).data;
  return page.content
    .filter((m) => m.messageType === 'ASSISTANT')
    .map((m) => m.content)
    .reverse();
}

/** An agent shared by every instance: answers "answer to <message>", holding "first" until opened; counts decisions at once. */
function sharedHeldAgent() {
  const decided: string[] = [];
  let deciding = 0;
  let mostAtOnce = 0;
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const agent: ChatAgent = {
    name: 'held',
    async decide(turn) {
      decided.push(turn.content);
      mostAtOnce = Math.max(mostAtOnce, ++deciding);
      try {
        if (turn.content === 'first') await opened;
        return { edit: null, reply: `answer to ${turn.content}` };
      } finally {
        deciding--;
      }
    },
  };
  return { agent, decided, mostAtOnce: () => mostAtOnce, open: () => open() };
}

describeOnPostgres('chat turns across two instances on one PostgreSQL database', () => {
  it('a message sent through B while A is still answering an earlier one is answered after it, never at the same time', async () => {
    const held = sharedHeldAgent();
    const [a, b] = await serversOn({ DATABASE_URL: await freshPostgresUrl() }, 2, { chatAgent: held.agent });
    const { token, plan } = await memberWithPlan(a!);
    const [onA, onB] = [await subscribedOn(a!, token, plan), await subscribedOn(b!, token, plan)];

    await say(onA, plan, 'first');
    await until(
      () => held.decided.includes('first'),
      () => 'A deciding on the first message',
    );
    await say(onB, plan, 'second');
    // Room for the wrong answer to show: an instance that answered on its own would decide on
    // "second" at once, while "first" is held. Nothing is decided in this window when it is right.
    await until(
      () => held.decided.includes('second'),
      () => '',
      300,
    ).catch(() => undefined);
    held.open();

    await until(
      () => [...onA.messages, ...onB.messages].filter(isAnswer).length >= 2,
      () => 'both answers',
    );
    expect(held.decided).toEqual(['first', 'second']);
    expect(held.mostAtOnce()).toBe(1);
    expect(await assistantAnswers(a!, token, plan)).toEqual(['answer to first', 'answer to second']);
  });
});

/** A turn taken by an instance that stopped without giving it back; a message sent to the room after it. */
async function roomHeldByAStoppedInstance(databaseUrl: string): Promise<void> {
  const [s] = await serversOn({ DATABASE_URL: databaseUrl, GENERATION_LEASE_MS: '1000', GENERATION_HEARTBEAT_MS: '300', GENERATION_SWEEP_MS: '20' }, 1);
  const { token, plan } = await memberWithPlan(s!);
  const c = await subscribedOn(s!, token, plan);
  const db = s!.app.services.db;
  const { chatRooms } = db.t;
  await db.run((q) =>
    q
      .update(chatRooms)
      .set({ turnToken: 'an-instance-that-stopped', turnUntil: s!.now() + 1000 })
      .where(eq(chatRooms.id, plan.chatRoomId))
      .returning({ id: chatRooms.id }),
  );

  await say(c, plan, 'hello');
  // Sweeps pass (every 20 ms) while the lease runs: the message waits.
  await until(
    () => c.messages.some(isAnswer),
    () => '',
    200,
  ).catch(() => undefined);
  expect(c.messages.filter(isAnswer)).toEqual([]);

  s!.advance(1001);
  await until(
    () => c.messages.some(isAnswer),
    () => 'the answer after the lease ran out',
  );
  expect(await assistantAnswers(s!, token, plan)).toHaveLength(1);
  const [room] = await db.run((q) => q.select().from(chatRooms).where(eq(chatRooms.id, plan.chatRoomId)));
  expect(room).toMatchObject({ turnToken: null, turnUntil: null });
}

describe('a room whose turn holder stopped (SQLite)', () => {
  it('is answered once the holder’s lease ran out, by the sweep', () => roomHeldByAStoppedInstance(':memory:'));
});

describeOnPostgres('a room whose turn holder stopped (PostgreSQL)', () => {
  it('is answered once the holder’s lease ran out, by the sweep', async () => roomHeldByAStoppedInstance(await freshPostgresUrl()));
});
