// Trip plan behaviour: generation state rules, restart, deletion cascade, swap and travel times.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertChatMessage } from '../../src/chats/chatRepository.js';
import { heldPlanner } from '../support/plannerStubs.js';
import { bodyOf } from '../support/responseBody.js';
import { seedItinerary } from '../support/seedItinerary.js';
import { busanTrip, startTestApp, type TestApp } from '../support/testApp.js';

let t: TestApp;
let token: string;
const events: string[] = [];

beforeAll(async () => {
  // Generations stay running until cancelled, so the state rules can be observed.
  t = await startTestApp({}, { planner: heldPlanner() });
  token = (await t.signIn('planner@example.com')).accessToken;
  t.app.services.events.subscribe('tripPlanGenerationRequested', (e) => void events.push(`requested ${e.tripPlanId}`));
  t.app.services.events.subscribe('tripPlanGenerationCancelRequested', (e) => void events.push(`cancel ${e.tripPlanId} ${e.reason}`));
});
afterAll(() => t.close());

const create = async () => bodyOf(await t.request('POST', '/api/v1/trips', { token, body: busanTrip }), 'createTripPlanSession', 201).data;
const status = async (id: number) => bodyOf(await t.request('GET', `/api/v1/trips/${id}`, { token }), 'getTripPlan', 200).data.generationStatus;
const days = async (id: number) => bodyOf(await t.request('GET', `/api/v1/trips/daily-plans/${id}`, { token }), 'listDailyPlans', 200).data;
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('generation state', () => {
  it('start moves PENDING to GENERATING and emits TripPlanGenerationRequestedEvent', async () => {
    const plan = await create();
    const res = await t.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token });
    expect(bodyOf(res, 'startTripPlanGeneration', 200).data).toEqual({ message: 'Trip plan generation started.' });
    expect(await status(plan.tripPlanId)).toBe('GENERATING');
    await flush();
    expect(events).toContain(`requested ${plan.tripPlanId}`);
  });

  it('cancel moves GENERATING to CANCELLED; a restart deletes the partial days', async () => {
    const plan = await create();
    await t.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token });
    await seedItinerary(t.app.services.db, plan.tripPlanId, busanTrip.startDate, 1);
    expect((await t.request('POST', `/api/v1/trips/${plan.tripPlanId}/cancel`, { token })).status).toBe(200);
    expect(await status(plan.tripPlanId)).toBe('CANCELLED');
    await flush();
    expect(events).toContain(`cancel ${plan.tripPlanId} cancel`);
    expect(await days(plan.tripPlanId)).toHaveLength(1);
    expect((await t.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token })).status).toBe(200);
    expect(await days(plan.tripPlanId)).toEqual([]);
  });
});

describe('delete', () => {
  it('removes days, stops, chat room and messages, cancels a running generation, and 404s afterwards', async () => {
    const plan = await create();
    await t.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token });
    await seedItinerary(t.app.services.db, plan.tripPlanId, busanTrip.startDate, 2);
    await insertChatMessage(t.app.services.db, { chatRoomId: plan.chatRoomId, messageType: 'USER', content: 'hi', createdAt: t.now() });
    const db = t.app.services.db;
    const { dailyPlans, scheduledPlaces, chatMessages } = db.t;
    const daysOfPlan = async () => (await db.run((q) => q.select().from(dailyPlans).execute())).filter((d) => d.tripPlanId === plan.tripPlanId);
    const dayIds = (await daysOfPlan()).map((d) => d.id);
    const stopsOfPlan = async () => (await db.run((q) => q.select().from(scheduledPlaces).execute())).filter((s) => dayIds.includes(s.dailyPlanId)).length;
    const messagesOfRoom = async () => (await db.run((q) => q.select().from(chatMessages).execute())).filter((m) => m.chatRoomId === plan.chatRoomId).length;
    expect([dayIds.length, await stopsOfPlan(), await messagesOfRoom()]).toEqual([2, 6, 1]);
    expect((await t.request('DELETE', `/api/v1/trips/${plan.tripPlanId}`, { token })).status).toBe(204);
    await flush();
    expect(events).toContain(`cancel ${plan.tripPlanId} delete`);
    expect(await daysOfPlan()).toEqual([]);
    expect([await stopsOfPlan(), await messagesOfRoom()]).toEqual([0, 0]);
    for (const [method, url] of [
      ['GET', `/api/v1/trips/${plan.tripPlanId}`],
      ['GET', `/api/v1/trips/daily-plans/${plan.tripPlanId}`],
      ['PATCH', `/api/v1/trips/${plan.tripPlanId}`],
      ['DELETE', `/api/v1/trips/${plan.tripPlanId}`],
      ['GET', `/api/v1/chats/${plan.chatRoomId}/messages`],
    ] as const) {
      const res = await t.request(method, url, { token, body: method === 'PATCH' ? { title: 'x' } : undefined });
      expect(res.status, `${method} ${url}`).toBe(404);
    }
  });
});

describe('swap', () => {
  it('exchanges the places of two stops, keeps categories, and recomputes travel for the day', async () => {
    const plan = await create();
    await seedItinerary(t.app.services.db, plan.tripPlanId, busanTrip.startDate, 1);
    const [before] = await days(plan.tripPlanId);
    const res = await t.request('PATCH', `/api/v1/trips/${plan.tripPlanId}/daily-plans/1/scheduled-places`, {
      token,
      body: { chatRoomId: plan.chatRoomId, visitOrderA: 1, visitOrderB: 3 },
    });
    expect(res.status).toBe(204);
    const [after] = await days(plan.tripPlanId);
    const names = (day: typeof after) => day!.scheduledPlaces.map((s) => s.place.name);
    expect(names(after)).toEqual([names(before)[2], names(before)[1], names(before)[0]]);
    expect(after!.scheduledPlaces.map((s) => s.category)).toEqual(['MORNING', 'AFTERNOON', 'EVENING']);
    // Stops keep their ids (a client may hold one as scheduledPlaceId); only their places moved.
    expect(after!.scheduledPlaces.map((s) => s.id)).toEqual(before!.scheduledPlaces.map((s) => s.id));
    expect(after!.scheduledPlaces[0]).toMatchObject({ travelTime: null, travelDistance: null });
    // Gwangalli -> Dongbaekseom is about 3 km in a straight line: a few km by road, under an hour.
    const second = after!.scheduledPlaces[1]!;
    expect(second.travelDistance).toBeGreaterThan(3000);
    expect(second.travelDistance).toBeLessThan(6000);
    expect(second.travelTime).toBeGreaterThan(5);
    expect(second.travelTime).toBeLessThan(60);
  });

  it("rejects a chat room that is not the plan's own", async () => {
    const plan = await create();
    const other = await create();
    await seedItinerary(t.app.services.db, plan.tripPlanId, busanTrip.startDate, 1);
    const res = await t.request('PATCH', `/api/v1/trips/${plan.tripPlanId}/daily-plans/1/scheduled-places`, {
      token,
      body: { chatRoomId: other.chatRoomId, visitOrderA: 1, visitOrderB: 2 },
    });
    expect(bodyOf(res, 'swapScheduledPlaces', 404).data.code).toBe('TRIP101');
  });
});

describe('removing a stop', () => {
  it('deletes it, renumbers the rest from 1 keeping their ids, and recomputes travel', async () => {
    const plan = await create();
    await seedItinerary(t.app.services.db, plan.tripPlanId, busanTrip.startDate, 1);
    const { applyDayEdit } = await import('../../src/trips/savedDayEdits.js');
    const { findDay } = await import('../../src/trips/dailyPlanRepository.js');
    const before = (await findDay(t.app.services.db, plan.tripPlanId, 1))!;
    const { day: after, summary } = await applyDayEdit(t.app.services.db, plan.tripPlanId, { kind: 'remove', dayNumber: 1, visitOrder: 2 });
    expect(summary).toBe(`Removed stop 2 (${before.stops[1]!.place.name}) from day 1.`);
    expect(after.stops.map((s) => [s.id, s.visitOrder, s.place.name])).toEqual([
      [before.stops[0]!.id, 1, before.stops[0]!.place.name],
      [before.stops[2]!.id, 2, before.stops[2]!.place.name],
    ]);
    expect(after.stops[1]!.travelDistance).not.toBe(before.stops[2]!.travelDistance);
    expect(after.description).toContain('2 stops (edited)');
  });
});

describe('title', () => {
  it('renames, trimming surrounding blanks', async () => {
    const plan = await create();
    expect((await t.request('PATCH', `/api/v1/trips/${plan.tripPlanId}`, { token, body: { title: '  Christmas in Busan ' } })).status).toBe(204);
    expect(bodyOf(await t.request('GET', `/api/v1/trips/${plan.tripPlanId}`, { token }), 'getTripPlan', 200).data.title).toBe('Christmas in Busan');
  });
});
