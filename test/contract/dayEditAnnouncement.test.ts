// A day edit is announced the same way whoever makes it (asyncapi.yaml, receiveScheduleUpdates;
// openapi.yaml, swapScheduledPlaces): the schedule channel gets UPDATE_STARTED, then UPDATED with
// the day as saved, then the chat channel gets UPDATED with the same summary. The HTTP swap and a
// chat edit send exactly that sequence.
import { jsonAt, jsonText } from '../../conformance/specModel/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channels, matchChannel } from '../../generated/asyncapi.js';
import { messageValidators } from '../../generated/validators.js';
import { seedItinerary } from '../support/seedItinerary.js';
import { connectStomp, wsUrl, type ReceivedMessage, type StompTestClient } from '../support/stompTestClient.js';
import { busanTrip } from '../support/testApp.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { bodyOf } from '../support/responseBody.js';

let s: TestServer;
let c: StompTestClient;
let token: string;
let plan: { tripPlanId: number; chatRoomId: number };

beforeAll(async () => {
  s = await startTestServer();
  token = (await s.signIn('editor@example.com')).accessToken;
  plan = bodyOf(await s.request('POST', '/api/v1/trips', { token, body: busanTrip }), 'createTripPlanSession', 201).data;
  await seedItinerary(s.app.services.db, plan.tripPlanId, busanTrip.startDate, 1);
  c = await connectStomp(wsUrl(s.url), token);
  await c.subscribe(`/user/sub/schedule/${plan.tripPlanId}`);
  await c.subscribe(`/user/sub/chat/${plan.chatRoomId}`);
  await c.subscribe(`/user/sub/errors/${plan.chatRoomId}`);
});
afterAll(async () => {
  await c.disconnect();
  expect(s.app.checker.violations).toEqual([]);
  await s.stop();
});

/** The announcement among the messages since `start`: schedule messages and the chat's UPDATED, in order. */
async function announcementSince(start: number): Promise<ReceivedMessage[]> {
  await c.waitFor((m) => c.messages.indexOf(m) >= start && jsonAt(m.body, 'messageStreamType') === 'UPDATED');
  return c.messages.slice(start).filter((m) => m.destination.includes('/schedule/') || jsonAt(m.body, 'messageStreamType') === 'UPDATED');
}

const shape = (messages: ReceivedMessage[]) =>
  messages.map((m) =>
    m.destination.includes('/schedule/')
      ? `schedule ${jsonText(jsonAt(m.body, 'type'))}${jsonAt(m.body, 'dailyPlan') ? ` day ${jsonText(jsonAt(m.body, 'dailyPlan', 'dayNumber'))}` : ''}`
      : `chat ${jsonText(jsonAt(m.body, 'messageStreamType'))}`,
  );

async function savedDay1() {
  return bodyOf(await s.request('GET', `/api/v1/trips/daily-plans/${plan.tripPlanId}`, { token }), 'listDailyPlans', 200).data[0];
}

describe('a day edit is announced the same way by the HTTP swap and by a chat edit', () => {
  let viaHttp: ReceivedMessage[];
  let viaChat: ReceivedMessage[];

  beforeAll(async () => {
    let start = c.messages.length;
    const res = await s.request('PATCH', `/api/v1/trips/${plan.tripPlanId}/daily-plans/1/scheduled-places`, {
      token,
      body: { chatRoomId: plan.chatRoomId, visitOrderA: 1, visitOrderB: 2 },
    });
    expect(res.status).toBe(204);
    viaHttp = await announcementSince(start);
    expect(jsonAt(viaHttp.at(-2)?.body, 'dailyPlan')).toEqual(await savedDay1());

    start = c.messages.length;
    await c.send(`/pub/chat/${plan.chatRoomId}/message`, JSON.stringify({ content: 'swap stop 1 and 2 on day 1' }));
    viaChat = await announcementSince(start);
    expect(jsonAt(viaChat.at(-2)?.body, 'dailyPlan')).toEqual(await savedDay1());
  });

  it('both send UPDATE_STARTED, UPDATED with the day, then the chat UPDATED', () => {
    const expected = ['schedule UPDATE_STARTED', 'schedule UPDATED day 1', 'chat UPDATED'];
    expect(shape(viaHttp)).toEqual(expected);
    expect(shape(viaChat)).toEqual(expected);
  });

  it('both name the edit alike, on the schedule and the chat', () => {
    for (const messages of [viaHttp, viaChat]) {
      const [started, updated, chat] = messages.map((m) => m.body);
      expect(jsonAt(started, 'message')).toBe('Updating day 1.');
      expect(jsonAt(updated, 'message')).toMatch(/^Swapped stop 1 \(.+\) and stop 2 \(.+\) on day 1\.$/);
      expect(chat).toMatchObject({ message: jsonAt(updated, 'message'), isComplete: true });
    }
    // The second swap undid the first: each names the stops as they were before it.
    const httpMessage = jsonAt(viaHttp[1]?.body, 'message');
    expect(httpMessage).toEqual(expect.any(String));
    expect(jsonAt(viaChat[1]?.body, 'message')).toBe(jsonText(httpMessage).replace(/\((.+)\) and stop 2 \((.+)\)/, '($2) and stop 2 ($1)'));
  });

  it('every message matches its channel schema', () => {
    for (const m of [...viaHttp, ...viaChat]) {
      const channel = matchChannel(m.destination)!;
      const validate = messageValidators[channels[channel.name].messages[0] as keyof typeof messageValidators];
      expect(validate(m.body), JSON.stringify(validate.errors)).toBe(true);
    }
  });
});
