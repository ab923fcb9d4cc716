// Edits while a plan is GENERATING (openapi.yaml startTripPlanGeneration / swapScheduledPlaces /
// updateTripPlanTitle / deleteTripPlan, asyncapi.yaml "Edits while a plan is GENERATING"): the
// itinerary belongs to the generator until the run ends. Swap → 409 TRIP106; a chat message →
// TRIP106 on the errors channel; a title update is allowed; delete cancels, then deletes. The
// generator is held between two days, so each edit meets a run that has just saved a day and not
// yet the next: the race is decided by event order, not by timing.
import { jsonAt } from '../../conformance/specModel/index.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatAgent } from '../../src/chats/chatAgent.js';
import { createOfflineChatAgent } from '../../src/chats/offlineChatAgent.js';
import { createOfflinePlanner } from '../../src/generation/offline/offlinePlanner.js';
import type { Planner } from '../../src/generation/planner.js';
import { gatedPlanner, type GatedPlanner } from '../support/plannerStubs.js';
import { connectStomp, wsUrl, type ReceivedMessage, type StompTestClient } from '../support/stompTestClient.js';
import { busanTrip } from '../support/testApp.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { bodyOf, errorCodeOf } from '../support/responseBody.js';

/** The offline chat agent, except that each decision waits until the test releases it. */
function heldChatAgent() {
  const inner = createOfflineChatAgent();
  let deciding: () => void = () => undefined;
  let release: () => void = () => undefined;
  const agent: ChatAgent = {
    name: 'held',
    async decide(turn, signal) {
      const gate = new Promise<void>((resolve) => (release = resolve));
      deciding();
      await gate;
      return inner.decide(turn, signal);
    },
  };
  return {
    agent,
    /** resolves once the agent has begun deciding on the next message */
    nextDecision: () => new Promise<void>((resolve) => (deciding = resolve)),
    release: () => release(),
  };
}

const onSchedule = (type: string) => (m: ReceivedMessage) => m.destination.includes('/schedule/') && jsonAt(m.body, 'type') === type;
const onChat = (type: string) => (m: ReceivedMessage) => m.destination.includes('/chat/') && jsonAt(m.body, 'messageStreamType') === type;
const onErrors = (code: string) => (m: ReceivedMessage) => m.destination.includes('/errors/') && jsonAt(m.body, 'code') === code;

describe('edits while a plan is GENERATING', () => {
  let s: TestServer;
  let planner: GatedPlanner;
  const chat = heldChatAgent();
  const clients: StompTestClient[] = [];

  beforeAll(async () => {
    let inner!: Planner;
    planner = gatedPlanner(() => inner);
    s = await startTestServer({}, { planner, chatAgent: chat.agent });
    inner = createOfflinePlanner({ db: s.app.services.db, delayMs: 0 });
  });
  afterEach(async () => {
    // A test that failed midway must not leave its run holding a generation slot.
    for (const tripPlanId of planner.started) planner.finish(tripPlanId);
    await Promise.all(clients.splice(0).map((c) => c.disconnect()));
  });
  afterAll(async () => {
    expect(s.app.checker.violations).toEqual([]);
    await s.stop();
  });

  /** A subscribed member with a 2-day plan whose run has saved day 1 and is held before day 2. */
  async function planHeldAfterDayOne(email: string) {
    const { accessToken: token } = await s.signIn(email);
    const plan = bodyOf(await s.request('POST', '/api/v1/trips', { token, body: { ...busanTrip, duration: 2 } }), 'createTripPlanSession', 201).data as {
      tripPlanId: number;
      chatRoomId: number;
    };
    const c = await connectStomp(wsUrl(s.url), token);
    clients.push(c);
    await c.subscribe(`/user/sub/schedule/${plan.tripPlanId}`);
    await c.subscribe(`/user/sub/chat/${plan.chatRoomId}`);
    await c.subscribe(`/user/sub/errors/${plan.chatRoomId}`);
    expect((await s.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token })).status).toBe(200);
    planner.step(plan.tripPlanId);
    expect(await planner.paused(plan.tripPlanId)).toBe(1);
    return { token, c, ...plan };
  }

  const days = async (token: string, tripPlanId: number) =>
    bodyOf(await s.request('GET', `/api/v1/trips/daily-plans/${tripPlanId}`, { token }), 'listDailyPlans', 200).data;
  const swap = (token: string, plan: { tripPlanId: number; chatRoomId: number }, dayNumber: number) =>
    s.request('PATCH', `/api/v1/trips/${plan.tripPlanId}/daily-plans/${dayNumber}/scheduled-places`, {
      token,
      body: { chatRoomId: plan.chatRoomId, visitOrderA: 1, visitOrderB: 2 },
    });

  it('swap is 409 TRIP106 on the day just saved and on the day not saved yet; the run saves its days untouched; after COMPLETED it works', async () => {
    const plan = await planHeldAfterDayOne('swapper@example.com');
    const savedDayOne = await days(plan.token, plan.tripPlanId);
    expect(savedDayOne).toHaveLength(1);

    for (const dayNumber of [1, 2]) {
      const refused = await swap(plan.token, plan, dayNumber);
      expect([refused.status, errorCodeOf(refused)], `day ${dayNumber}`).toEqual([409, 'TRIP106']);
    }
    expect(await days(plan.token, plan.tripPlanId)).toEqual(savedDayOne);

    planner.finish(plan.tripPlanId);
    await plan.c.waitFor(onChat('COMPLETED'));
    const generated = plan.c.messages.filter(onSchedule('DAILY_PLAN_GENERATED')).map((m) => jsonAt(m.body, 'dailyPlan'));
    expect(await days(plan.token, plan.tripPlanId)).toEqual(generated);
    expect(generated[0]).toEqual(savedDayOne[0]);
    expect(plan.c.messages.some(onSchedule('UPDATED'))).toBe(false);

    expect((await swap(plan.token, plan, 1)).status).toBe(204);
    const updated = await plan.c.waitFor(onSchedule('UPDATED'));
    expect(jsonAt(updated.body, 'dailyPlan', 'scheduledPlaces', 0, 'place')).toEqual(jsonAt(generated[0], 'scheduledPlaces', 1, 'place'));
  });

  it('a chat message is TRIP106 on the errors channel, not stored and not acted on; the RECEIPT still comes', async () => {
    const plan = await planHeldAfterDayOne('chatter@example.com');
    const before = await days(plan.token, plan.tripPlanId);
    await plan.c.send(`/pub/chat/${plan.chatRoomId}/message`, JSON.stringify({ content: 'swap stop 1 and 2 on day 1' }));
    const refusal = await plan.c.waitFor(onErrors('TRIP106'));
    expect(refusal.body).toMatchObject({ code: 'TRIP106', path: `/pub/chat/${plan.chatRoomId}/message`, errors: null });

    planner.finish(plan.tripPlanId);
    await plan.c.waitFor(onChat('COMPLETED'));
    expect((await days(plan.token, plan.tripPlanId))[0]).toEqual(before[0]);
    expect(plan.c.messages.some((m) => onSchedule('UPDATE_STARTED')(m) || onSchedule('UPDATED')(m))).toBe(false);
    const history = bodyOf(await s.request('GET', `/api/v1/chats/${plan.chatRoomId}/messages`, { token: plan.token }), 'listChatMessages', 200).data
      .content as { content: string }[];
    expect(history.map((m) => m.content)).not.toContain('swap stop 1 and 2 on day 1');
  });

  it('a chat edit the AI decided on while a new generation started is not applied: TRIP106, the new run’s day stays as generated', async () => {
    const plan = await planHeldAfterDayOne('racer@example.com');
    expect((await s.request('POST', `/api/v1/trips/${plan.tripPlanId}/cancel`, { token: plan.token })).status).toBe(200);
    await plan.c.waitFor(onChat('CANCELLED'));

    const deciding = chat.nextDecision();
    await plan.c.send(`/pub/chat/${plan.chatRoomId}/message`, JSON.stringify({ content: 'swap stop 1 and 2 on day 1' }));
    await deciding;
    // While the AI decides, the member starts again: the old days go, the new run saves day 1.
    const seen = plan.c.messages.length;
    expect((await s.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token: plan.token })).status).toBe(200);
    planner.step(plan.tripPlanId);
    expect(await planner.paused(plan.tripPlanId)).toBe(1);
    const newDayOne = (await days(plan.token, plan.tripPlanId))[0];

    chat.release();
    await plan.c.waitFor((m) => onErrors('TRIP106')(m) && plan.c.messages.indexOf(m) >= seen);
    expect((await days(plan.token, plan.tripPlanId))[0]).toEqual(newDayOne);
    expect(plan.c.messages.slice(seen).some((m) => onSchedule('UPDATE_STARTED')(m) || onSchedule('UPDATED')(m))).toBe(false);

    planner.finish(plan.tripPlanId);
    await plan.c.waitFor((m) => onChat('COMPLETED')(m) && plan.c.messages.indexOf(m) >= seen);
  });

  it('a title update is allowed and kept: the run goes on and completes', async () => {
    const plan = await planHeldAfterDayOne('renamer@example.com');
    expect((await s.request('PATCH', `/api/v1/trips/${plan.tripPlanId}`, { token: plan.token, body: { title: 'Renamed mid-run' } })).status).toBe(204);
    planner.finish(plan.tripPlanId);
    await plan.c.waitFor(onChat('COMPLETED'));
    const detail = bodyOf(await s.request('GET', `/api/v1/trips/${plan.tripPlanId}`, { token: plan.token }), 'getTripPlan', 200).data;
    expect(detail).toMatchObject({ title: 'Renamed mid-run', generationStatus: 'COMPLETED' });
    expect(await days(plan.token, plan.tripPlanId)).toHaveLength(2);
  });

  it('delete cancels the run, then deletes: chat CANCELLED, no day after it, no AI002, and the plan is gone', async () => {
    const plan = await planHeldAfterDayOne('deleter@example.com');
    expect((await s.request('DELETE', `/api/v1/trips/${plan.tripPlanId}`, { token: plan.token })).status).toBe(204);
    await plan.c.waitFor(onChat('CANCELLED'));
    // CANCELLED is the last message of a run.
    expect(plan.c.messages.filter(onSchedule('DAILY_PLAN_GENERATED'))).toHaveLength(1);
    expect(plan.c.messages.some((m) => m.destination.includes('/errors/'))).toBe(false);
    expect((await s.request('GET', `/api/v1/trips/${plan.tripPlanId}`, { token: plan.token })).status).toBe(404);
    expect((await s.request('GET', `/api/v1/trips/daily-plans/${plan.tripPlanId}`, { token: plan.token })).status).toBe(404);
  });
});
