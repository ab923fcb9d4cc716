// Chat edits and swaps of one day sent at the same moment through two instances on one PostgreSQL
// database (one member, a STOMP connection on each instance): every edit announced is in the saved
// day, each applied to the day the one before it saved; no swap answers 500 and no chat message
// gets AI002; visit orders stay 1..n and no place is in the plan twice. A room's chat messages are
// answered one at a time, in id order, whichever instance received them (chats/chatTurns.ts).
import { jsonAt } from '../../conformance/specModel/index.js';
import { afterEach, expect, it } from 'vitest';
import { announcedEdits, chainOf, isWellFormed, placesOf, planWithLongDay, savedDay, until, type AnnouncedEdit, type Plan } from '../support/dayEditRounds.js';
import { describeOnPostgres, freshPostgresDatabase, type FreshPostgresDatabase } from '../support/postgres.js';
import { connectStomp, wsUrl, type ReceivedMessage, type StompTestClient } from '../support/stompTestClient.js';
import { startTestServer, type TestServer } from '../support/testServer.js';

let database: FreshPostgresDatabase | undefined;
const servers: TestServer[] = [];
const clients: StompTestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.disconnect()));
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  await database?.drop();
  database = undefined;
});

/** Two instances on a fresh database; the member has a long day 1 and a subscribed STOMP connection on each. */
async function memberOnTwoInstances(stops: number) {
  const { url } = (database = await freshPostgresDatabase({ migrated: true }));
  const [a, b] = await Promise.all([startTestServer({ DATABASE_URL: url }), startTestServer({ DATABASE_URL: url })]);
  servers.push(a, b);
  const { accessToken: token } = await a.signIn('editor@example.com');
  const plan = await planWithLongDay(a, token, stops);
  const connect = async (s: TestServer) => {
    const c = await connectStomp(wsUrl(s.url), token);
    clients.push(c);
    await c.subscribe(`/user/sub/schedule/${plan.tripPlanId}`);
    await c.subscribe(`/user/sub/chat/${plan.chatRoomId}`);
    await c.subscribe(`/user/sub/errors/${plan.chatRoomId}`);
    return c;
  };
  return { a, b, token, plan, onA: await connect(a), onB: await connect(b) };
}

const isAnswer = (m: ReceivedMessage) =>
  (m.destination.includes('/chat/') && jsonAt(m.body, 'messageStreamType') === 'CHAT' && jsonAt(m.body, 'isComplete') === true) ||
  m.destination.includes('/errors/');

/** What each connection received since `marks`. */
const since = (connections: StompTestClient[], marks: number[]) => connections.flatMap((c, i) => c.messages.slice(marks[i]));

const say = (c: StompTestClient, plan: Plan, content: string) => c.send(`/pub/chat/${plan.chatRoomId}/message`, JSON.stringify({ content }));

/** The round's announcements, checked against the day before it and the day saved after it. */
async function expectEveryAnnouncedEditSaved(server: TestServer, token: string, plan: Plan, before: number[], announced: AnnouncedEdit[], round: number) {
  const saved = await savedDay(server, token, plan.tripPlanId);
  expect(
    isWellFormed(saved),
    `round ${round}: visit orders 1..n, no place twice: ${JSON.stringify(saved.scheduledPlaces.map((s) => [s.visitOrder, s.place.id]))}`,
  ).toBe(true);
  const chain = chainOf(before, announced);
  expect(chain, `round ${round}: the announced edits ${JSON.stringify(announced)} do not follow one another from ${JSON.stringify(before)}`).not.toBeNull();
  expect(placesOf(saved), `round ${round}: the saved day is the last announced one`).toEqual(chain);
  return placesOf(saved);
}

describeOnPostgres('concurrent chat edits through two instances on one PostgreSQL database', () => {
  it('"replace a stop" sent through each instance at once: both announced replacements are in the saved day', async () => {
    const { a, token, plan, onA, onB } = await memberOnTwoInstances(6);
    let day = placesOf(await savedDay(a, token, plan.tripPlanId));
    for (let round = 0; round < 6; round++) {
      const marks = [onA.messages.length, onB.messages.length];
      await Promise.all([say(onA, plan, 'replace stop 1 on day 1'), say(onB, plan, 'replace stop 2 on day 1')]);
      await until(
        () => since([onA, onB], marks).filter(isAnswer).length >= 2,
        () => `two answers in round ${round}`,
      );
      const received = since([onA, onB], marks);
      expect(received.filter((m) => m.destination.includes('/errors/')).map((m) => m.body)).toEqual([]);
      const announced = announcedEdits(received);
      expect(announced.map((e) => e.edit).sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)))).toEqual([
        { kind: 'replace', at: 1 },
        { kind: 'replace', at: 2 },
      ]);
      day = await expectEveryAnnouncedEditSaved(a, token, plan, day, announced, round);
    }
  });

  it('swaps over HTTP and chat removals and replacements at once: no 500, no AI002, every acknowledged edit in the saved day', async () => {
    const { a, b, token, plan, onA, onB } = await memberOnTwoInstances(10);
    let day = placesOf(await savedDay(a, token, plan.tripPlanId));
    const swap = (s: TestServer, visitOrderA: number, visitOrderB: number) =>
      s.request('PATCH', `/api/v1/trips/${plan.tripPlanId}/daily-plans/1/scheduled-places`, {
        token,
        body: { chatRoomId: plan.chatRoomId, visitOrderA, visitOrderB },
      });
    for (let round = 0; round < 5; round++) {
      const marks = [onA.messages.length, onB.messages.length];
      const [swapOnA, swapOnB] = await Promise.all([
        swap(a, 1, 2),
        swap(b, 3, 4),
        say(onA, plan, 'remove stop 5 on day 1'),
        say(onB, plan, 'replace stop 2 on day 1'),
      ]);
      for (const answer of [swapOnA, swapOnB]) expect(answer.status, `round ${round}: ${answer.text}`).toBe(204);
      await until(
        () => {
          const received = since([onA, onB], marks);
          return received.filter(isAnswer).length >= 2 && announcedEdits(received).filter((e) => e.edit.kind === 'swap').length >= 2;
        },
        () => `two chat answers and two swap announcements in round ${round}`,
      );
      const received = since([onA, onB], marks);
      expect(received.filter((m) => m.destination.includes('/errors/')).map((m) => m.body)).toEqual([]);
      const announced = announcedEdits(received);
      expect(announced.map((e) => e.edit.kind).sort()).toEqual(['remove', 'replace', 'swap', 'swap']);
      day = await expectEveryAnnouncedEditSaved(a, token, plan, day, announced, round);
    }
  });
});
