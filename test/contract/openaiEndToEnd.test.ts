// PLANNER=openai end to end: the app is configured only through its environment, talks to a local
// OpenAI-compatible server through the real SDK (SSE streaming), and the STOMP stream, the saved
// days and the chat follow the same contract as with the offline planner. The admin's active
// prompt template is what the model is sent.
import { arrayOrEmpty, jsonAt, jsonText } from '../../conformance/specModel/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageValidators } from '../../generated/validators.js';
import { placesOfRegion } from '../../src/catalogue/placeRepository.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../support/fakeOpenAiServer.js';
import { connectStomp, wsUrl, type StompTestClient } from '../support/stompTestClient.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { busanTrip } from '../support/testApp.js';
import { bodyOf } from '../support/responseBody.js';

let fake: FakeOpenAiServer;
let s: TestServer;
let c: StompTestClient;

beforeAll(async () => {
  fake = await startFakeOpenAiServer();
  s = await startTestServer({ PLANNER: 'openai', OPENAI_BASE_URL: fake.baseUrl, OPENAI_MODEL: 'fake-model' });
});
afterAll(async () => {
  await c?.disconnect();
  await s.stop();
  await fake.close();
});

function dayAnswer(placeIds: number[], title: string): string {
  const categories = ['MORNING', 'AFTERNOON', 'AFTERNOON', 'EVENING'] as const;
  return JSON.stringify({
    id: 1,
    dayNumber: 1,
    date: '2026-12-24',
    title,
    description: `## ${title}\nFrom the model.`,
    scheduledPlaces: placeIds.map((id, i) => ({
      id: i + 1,
      visitOrder: i + 1,
      category: categories[i],
      travelTime: null,
      travelDistance: null,
      transportation: 'PUBLIC_TRANSIT',
      place: {
        id,
        name: '',
        address: '',
        latitude: 0,
        longitude: 0,
        description: '',
        imageUrl: null,
        operatingHours: null,
        holidayInfo: null,
        isMustVisit: false,
        themes: [],
      },
    })),
  });
}

describe('PLANNER=openai through the app', () => {
  it('generates a day from the model, streams its summary, and answers chat with a tool call', async () => {
    const admin = await s.signInAdmin('admin@example.com');
    await s.request('POST', '/api/v1/admin/prompts', {
      token: admin.accessToken,
      body: { promptType: 'SYSTEM', agentType: 'TRIP_AGENT', prompt: 'You plan trips for the conformance crew.' },
    });
    const tokens = await s.signIn('ai@example.com');
    const plan = bodyOf(
      await s.request('POST', '/api/v1/trips', { token: tokens.accessToken, body: { ...busanTrip, duration: 1 } }),
      'createTripPlanSession',
      201,
    ).data;
    const busan = await placesOfRegion(s.app.services.db, 'busan');
    const sights = busan.filter((p) => p.kind === 'SIGHT');
    const restaurants = busan.filter((p) => p.kind === 'RESTAURANT');
    const ids = [sights[0]!.id, restaurants[0]!.id, sights[1]!.id, restaurants[1]!.id];
    fake.reply({ content: dayAnswer(ids, 'Day 1 by the sea'), chunks: 6 }, { content: 'A calm day by the sea, then seafood.', chunks: 3 });

    c = await connectStomp(wsUrl(s.url), tokens.accessToken);
    await c.subscribe(`/user/sub/schedule/${plan.tripPlanId}`);
    await c.subscribe(`/user/sub/chat/${plan.chatRoomId}`);
    await c.subscribe(`/user/sub/errors/${plan.chatRoomId}`);
    await s.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token: tokens.accessToken });
    await c.waitFor((m) => jsonAt(m.body, 'messageStreamType') === 'COMPLETED');

    const generated = jsonAt(c.messages.find((m) => jsonAt(m.body, 'type') === 'DAILY_PLAN_GENERATED')?.body, 'dailyPlan');
    expect(jsonAt(generated, 'title')).toBe('Day 1 by the sea');
    expect(arrayOrEmpty(jsonAt(generated, 'scheduledPlaces')).map((p) => jsonAt(p, 'place', 'id'))).toEqual(ids);
    expect(jsonAt(generated, 'scheduledPlaces', 0, 'place', 'name')).toBe(sights[0]!.name);
    const summary = c.messages
      .filter((m) => jsonAt(m.body, 'messageStreamType') === 'CHAT' && !jsonAt(m.body, 'isComplete'))
      .map((m) => jsonText(jsonAt(m.body, 'message')))
      .join('');
    expect(summary).toBe('A calm day by the sea, then seafood.');
    for (const m of c.messages) {
      const validate = m.destination.includes('/schedule/') ? messageValidators.TripPlanProgressMessage : messageValidators.ChatStreamDto;
      expect(validate(m.body)).toBe(true);
    }
    // The request carried the admin's system prompt and a strict schema derived from the spec.
    expect(fake.requests[0].messages[0]).toMatchObject({ role: 'system', content: 'You plan trips for the conformance crew.' });
    expect(fake.requests[0].response_format.json_schema.strict).toBe(true);
    expect(fake.requests[0].stream).toBe(true);

    fake.reply({ toolCall: { name: 'swap_stops', arguments: { dayNumber: 1, visitOrderA: 1, visitOrderB: 3 } } });
    const before = c.messages.length;
    await c.send(`/pub/chat/${plan.chatRoomId}/message`, JSON.stringify({ content: 'Could you put the second sight first?' }));
    const updated = await c.waitFor((m) => c.messages.indexOf(m) >= before && jsonAt(m.body, 'type') === 'UPDATED');
    expect(arrayOrEmpty(jsonAt(updated.body, 'dailyPlan', 'scheduledPlaces')).map((p) => jsonAt(p, 'place', 'id'))).toEqual([ids[2], ids[1], ids[0], ids[3]]);
    await c.waitFor((m) => c.messages.indexOf(m) >= before && jsonAt(m.body, 'messageStreamType') === 'CHAT' && jsonAt(m.body, 'isComplete') === true);
    expect(fake.pending()).toBe(0);
    expect(s.app.checker.violations).toEqual([]);
  });
});
