// asyncapi.yaml replayed with a real STOMP client (@stomp/stompjs): every message is checked against
// its channel's schema (the generated validators), every frame the server sends (CONNECTED, RECEIPT,
// ERROR, MESSAGE) against the headers and body of its documented message, the documented order of a
// generation is exact, what was streamed equals what was saved, and the STOMP rules (auth on CONNECT
// or on the upgrade request, ownership, frame limits, receipts) hold.
import { jsonAt, jsonText } from '../../conformance/specModel/index.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { asyncapiVersion, matchChannel, channels } from '../../generated/asyncapi.js';
import type { AsyncSchemas } from '../../generated/asyncapi.js';
import { messageValidators } from '../../generated/validators.js';
import { PlannerError, type Planner } from '../../src/generation/planner.js';
import type { PlannedDay } from '../../src/itinerary/plannedDay.js';
import { abortableDelay } from '../../src/generation/abortableDelay.js';
import type { Broker } from '../../src/delivery/broker.js';
import { createInMemoryPlanLog } from '../../src/delivery/inMemoryPlanLog.js';
import { createInMemoryLogStarts } from '../../src/delivery/logStarts.js';
import { createFrameReader, frameProblems, type ObservedFrame } from '../support/documentedFrames.js';
import { connectStomp, heartBeatsReceived, wsUrl, type ConnectOptions, type ReceivedMessage, type StompTestClient } from '../support/stompTestClient.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { testEngine } from '../support/testDatabase.js';
import { busanTrip } from '../support/testApp.js';
import { webSocketText } from '../support/webSocketText.js';
import { bodyOf } from '../support/responseBody.js';

type DailyPlan = AsyncSchemas['DailyPlanResponse'];

const clients: StompTestClient[] = [];
const servers: TestServer[] = [];

async function server(env: Record<string, string> = {}, planner?: Planner): Promise<TestServer> {
  const s = await startTestServer(env, planner ? { planner } : {});
  servers.push(s);
  return s;
}

async function connect(s: TestServer, token: string | null, options: ConnectOptions = {}): Promise<StompTestClient> {
  const c = await connectStomp(wsUrl(s.url), token, options);
  clients.push(c);
  return c;
}

/** Every frame the server sent matches its documented message, headers and body (asyncapi.yaml). */
function expectDocumentedFrames(frames: ObservedFrame[]): void {
  expect(frames.length, 'frames received').toBeGreaterThan(0);
  expect(frames.flatMap(frameProblems)).toEqual([]);
}

/** Every message matches its channel's payload schema and carries the STOMP MESSAGE headers. */
function expectValidMessages(messages: ReceivedMessage[]): void {
  const ids = new Set<string>();
  for (const m of messages) {
    const channel = matchChannel(m.destination);
    expect(channel, m.destination).not.toBeNull();
    const messageName = channels[channel!.name].messages[0] as keyof typeof messageValidators;
    const validate = messageValidators[messageName];
    expect(validate(m.body), `${m.destination}: ${JSON.stringify(validate.errors)}`).toBe(true);
    expect(m.headers['content-type']).toBe('application/json');
    expect(m.headers.subscription).toMatch(/^sub-\d+$/);
    expect(ids.has(m.headers['message-id']!), 'message-id unique').toBe(false);
    ids.add(m.headers['message-id']!);
  }
}

async function planFor(s: TestServer, email: string, body: Record<string, unknown> = busanTrip) {
  const tokens = await s.signIn(email);
  const plan = bodyOf(await s.request('POST', '/api/v1/trips', { token: tokens.accessToken, body }), 'createTripPlanSession', 201).data as {
    tripPlanId: number;
    chatRoomId: number;
  };
  return { ...tokens, ...plan };
}

async function subscribeAll(c: StompTestClient, plan: { tripPlanId: number; chatRoomId: number }): Promise<void> {
  await c.subscribe(`/user/sub/schedule/${plan.tripPlanId}`);
  await c.subscribe(`/user/sub/chat/${plan.chatRoomId}`);
  await c.subscribe(`/user/sub/errors/${plan.chatRoomId}`);
}

const isChat = (type: string) => (m: ReceivedMessage) => m.destination.startsWith('/user/sub/chat/') && jsonAt(m.body, 'messageStreamType') === type;

afterEach(async () => {
  const used = clients.splice(0);
  await Promise.all(used.map((c) => c.disconnect()));
  for (const c of used) expectDocumentedFrames(c.frames);
});
/**
 * Stops the servers started so far, each after checking it saw no contract violation. Each top-level
 * group calls it when it ends: servers kept to the end of the file would hold a pool of PostgreSQL
 * connections each while other test files running alongside need them too.
 */
async function retireServers(): Promise<void> {
  for (const s of servers.splice(0)) {
    expect(s.app.checker.violations).toEqual([]);
    await s.stop();
  }
}

describe('a 3-day generation over STOMP', () => {
  afterAll(retireServers);
  let s: TestServer;
  let plan: Awaited<ReturnType<typeof planFor>>;
  let c: StompTestClient;

  beforeAll(async () => {
    s = await server();
    plan = await planFor(s, 'streamer@example.com');
    c = await connectStomp(wsUrl(s.url), plan.accessToken);
    await subscribeAll(c, plan);
    expect((await s.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token: plan.accessToken })).status).toBe(200);
    await c.waitFor(isChat('COMPLETED'));
  });
  afterAll(() => c.disconnect());

  it('sends only messages valid against their channel schema, with the MESSAGE headers', () => {
    expectValidMessages(c.messages);
  });

  it('sends only frames that match their documented message: CONNECTED, RECEIPT and MESSAGE headers and bodies', () => {
    expectDocumentedFrames(c.frames);
    expect(new Set(c.frames.map((f) => f.command))).toEqual(new Set(['CONNECTED', 'RECEIPT', 'MESSAGE']));
    const [major, minor] = asyncapiVersion.split('.');
    expect(c.frames[0]!.headers).toMatchObject({ version: '1.2', server: `trip-itinerary/${major}.${minor}` });
  });

  it('follows the documented order: per day DAILY_PLAN_GENERATED, summary chunks, full summary; then COMPLETED', () => {
    const sequence = c.messages.map((m) =>
      m.destination.includes('/schedule/')
        ? `schedule:${jsonText(jsonAt(m.body, 'type'))}:${jsonText(jsonAt(m.body, 'dailyPlan', 'dayNumber'))}`
        : m.destination.includes('/errors/')
          ? 'error'
          : `chat:${jsonText(jsonAt(m.body, 'messageStreamType'))}:${jsonAt(m.body, 'isComplete') ? 'full' : 'chunk'}`,
    );
    const collapsed = sequence.filter((item, i) => !(item === 'chat:CHAT:chunk' && sequence[i - 1] === 'chat:CHAT:chunk'));
    expect(collapsed).toEqual([
      'schedule:DAILY_PLAN_GENERATED:1',
      'chat:CHAT:chunk',
      'chat:CHAT:full',
      'schedule:DAILY_PLAN_GENERATED:2',
      'chat:CHAT:chunk',
      'chat:CHAT:full',
      'schedule:DAILY_PLAN_GENERATED:3',
      'chat:CHAT:chunk',
      'chat:CHAT:full',
      'chat:COMPLETED:full',
    ]);
  });

  it('streams summaries whose chunks add up to the full text', () => {
    let chunks = '';
    for (const m of c.messages.filter((m) => m.destination.includes('/chat/'))) {
      if (jsonAt(m.body, 'messageStreamType') !== 'CHAT') continue;
      if (!jsonAt(m.body, 'isComplete')) chunks += jsonText(jsonAt(m.body, 'message'));
      else {
        expect(jsonAt(m.body, 'message')).toBe(chunks);
        chunks = '';
      }
    }
  });

  it('saved exactly the days it streamed, and the plan is COMPLETED', async () => {
    const streamed = c.messages.filter((m) => jsonAt(m.body, 'type') === 'DAILY_PLAN_GENERATED').map((m) => jsonAt(m.body, 'dailyPlan'));
    const saved = bodyOf(await s.request('GET', `/api/v1/trips/daily-plans/${plan.tripPlanId}`, { token: plan.accessToken }), 'listDailyPlans', 200).data;
    expect(saved).toEqual(streamed);
    expect(saved.map((d: { date: string }) => d.date)).toEqual(['2026-12-24', '2026-12-25', '2026-12-26']);
    const detail = bodyOf(await s.request('GET', `/api/v1/trips/${plan.tripPlanId}`, { token: plan.accessToken }), 'getTripPlan', 200).data;
    expect(detail).toMatchObject({ generationStatus: 'COMPLETED', isCompleted: true });
  });

  it('keeps the day summaries in the chat history, newest first', async () => {
    const history = bodyOf(await s.request('GET', `/api/v1/chats/${plan.chatRoomId}/messages`, { token: plan.accessToken }), 'listChatMessages', 200).data;
    const summaries = c.messages
      .filter((m) => jsonAt(m.body, 'messageStreamType') === 'CHAT' && jsonAt(m.body, 'isComplete') === true)
      .map((m) => jsonAt(m.body, 'message'));
    expect(history.content.map((m: { content: string }) => m.content)).toEqual([...summaries].reverse());
    expect(history.content.every((m: { messageType: string }) => m.messageType === 'ASSISTANT')).toBe(true);
  });

  it('refuses a second start while completed (409) and sends nothing more', async () => {
    const before = c.messages.length;
    expect((await s.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token: plan.accessToken })).status).toBe(409);
    expect(c.messages.length).toBe(before);
  });

  describe('chat on the generated plan', () => {
    it('swaps two stops on request: UPDATE_STARTED, UPDATED with the day, chat UPDATED, then the answer', async () => {
      const start = c.messages.length;
      const day1 = bodyOf(await s.request('GET', `/api/v1/trips/daily-plans/${plan.tripPlanId}`, { token: plan.accessToken }), 'listDailyPlans', 200).data[0]!;
      await c.send(`/pub/chat/${plan.chatRoomId}/message`, JSON.stringify({ content: 'Please swap stop 1 and 2 on day 1' }));
      await c.waitFor((m) => jsonAt(m.body, 'messageStreamType') === 'CHAT' && jsonAt(m.body, 'isComplete') === true && c.messages.indexOf(m) >= start);
      const after = c.messages.slice(start);
      expectValidMessages(after);
      expect(
        after
          .map((m) => jsonAt(m.body, 'type') ?? `${jsonText(jsonAt(m.body, 'messageStreamType'))}:${jsonText(jsonAt(m.body, 'isComplete'))}`)
          .filter((t, i, all) => !(t === 'CHAT:false' && all[i - 1] === 'CHAT:false')),
      ).toEqual(['UPDATE_STARTED', 'UPDATED', 'UPDATED:true', 'CHAT:false', 'CHAT:true']);
      // expectValidMessages above checked every message against its schema.
      const updated = jsonAt(after.find((m) => jsonAt(m.body, 'type') === 'UPDATED')?.body, 'dailyPlan') as unknown as DailyPlan;
      const names = (day: { scheduledPlaces: { place: { name: string } }[] }) => day.scheduledPlaces.map((p) => p.place.name);
      expect(names(updated).slice(0, 2)).toEqual([names(day1)[1], names(day1)[0]]);
      const saved = bodyOf(await s.request('GET', `/api/v1/trips/daily-plans/${plan.tripPlanId}`, { token: plan.accessToken }), 'listDailyPlans', 200).data[0]!;
      expect(saved).toEqual(updated);
      // The description follows the edit: the new first stop is listed first.
      expect(saved.description).toContain('(edited)');
      const list = saved.description.slice(saved.description.indexOf('\n1. '));
      expect(list.indexOf(names(updated)[0]!)).toBeGreaterThan(0);
      expect(list.indexOf(names(updated)[0]!)).toBeLessThan(list.indexOf(names(updated)[1]!));
      const history = bodyOf(
        await s.request('GET', `/api/v1/chats/${plan.chatRoomId}/messages`, { token: plan.accessToken, query: { size: 2 } }),
        'listChatMessages',
        200,
      ).data.content;
      expect(history.map((m) => m.messageType)).toEqual(['ASSISTANT', 'USER']);
      expect(history[1]?.content).toBe('Please swap stop 1 and 2 on day 1');
    });

    it('replaces and removes stops without ever repeating a place', async () => {
      for (const content of ['replace stop 2 on day 2', 'remove stop 1 on day 3']) {
        const start = c.messages.length;
        await c.send(`/pub/chat/${plan.chatRoomId}/message`, JSON.stringify({ content }));
        await c.waitFor((m) => jsonAt(m.body, 'messageStreamType') === 'CHAT' && jsonAt(m.body, 'isComplete') === true && c.messages.indexOf(m) >= start);
        expect(c.messages.slice(start).some((m) => jsonAt(m.body, 'type') === 'UPDATED')).toBe(true);
      }
      const days = bodyOf(await s.request('GET', `/api/v1/trips/daily-plans/${plan.tripPlanId}`, { token: plan.accessToken }), 'listDailyPlans', 200).data;
      const ids = days.flatMap((d: { scheduledPlaces: { place: { id: number } }[] }) => d.scheduledPlaces.map((p) => p.place.id));
      expect(new Set(ids).size).toBe(ids.length);
      expectValidMessages(c.messages);
    });

    it('answers other messages helpfully, without editing', async () => {
      const start = c.messages.length;
      await c.send(`/pub/chat/${plan.chatRoomId}/message`, JSON.stringify({ content: 'What is good to eat here?' }));
      const answer = await c.waitFor(
        (m) => jsonAt(m.body, 'messageStreamType') === 'CHAT' && jsonAt(m.body, 'isComplete') === true && c.messages.indexOf(m) >= start,
      );
      expect(jsonAt(answer.body, 'message')).toMatch(/swap stop 1 and 3 on day 2/);
      expect(c.messages.slice(start).some((m) => m.destination.includes('/schedule/'))).toBe(false);
    });

    it('puts CHAT102 on the errors channel for a blank message, and COMMON002 for a body that is not JSON', async () => {
      await c.send(`/pub/chat/${plan.chatRoomId}/message`, JSON.stringify({ content: '   ' }));
      const blank = await c.waitFor((m) => m.destination.includes('/errors/') && jsonAt(m.body, 'code') === 'CHAT102');
      await c.send(`/pub/chat/${plan.chatRoomId}/message`, '{not json');
      await c.waitFor((m) => m.destination.includes('/errors/') && jsonAt(m.body, 'code') === 'COMMON002');
      expect(jsonAt(blank.body, 'errors')).toBeNull();
      expectValidMessages(c.messages);
    });

    it('puts WS005 on the errors channel for another destination of an own room', async () => {
      await c.send(`/pub/chat/${plan.chatRoomId}/typing`, '{}');
      await c.waitFor((m) => m.destination.includes('/errors/') && jsonAt(m.body, 'code') === 'WS005');
    });
  });
});

describe('STOMP rules', () => {
  afterAll(retireServers);
  let s: TestServer;
  beforeAll(async () => {
    s = await server();
  });

  it('answers a bad token with ERROR WS001 and closes', async () => {
    for (const token of ['not-a-token', null]) {
      const c = await connect(s, token);
      expect(c.errors[0]?.headers['error-code']).toBe('WS001');
      await c.closed;
    }
  });

  it("answers a subscription to someone else's plan or room with ERROR WS004", async () => {
    const owner = await planFor(s, 'owner@example.com');
    const intruder = await s.signIn('intruder@example.com');
    for (const destination of [
      `/user/sub/schedule/${owner.tripPlanId}`,
      `/user/sub/chat/${owner.chatRoomId}`,
      `/user/sub/errors/${owner.chatRoomId}`,
      '/topic/everything',
    ]) {
      const c = await connect(s, intruder.accessToken);
      await expect(c.subscribe(destination)).rejects.toThrow(/WS004/);
      expect(c.errors[0]?.headers['error-code']).toBe('WS004');
      // The SUBSCRIBE asked for a receipt, so the ERROR names it (StompErrorHeaders receipt-id).
      expect(c.frames.find((f) => f.command === 'ERROR')?.headers['receipt-id']).toMatch(/^r-\d+$/);
    }
  });

  it("answers a SEND to someone else's room with ERROR WS005", async () => {
    const owner = await planFor(s, 'owner2@example.com');
    const intruder = await s.signIn('intruder2@example.com');
    const c = await connect(s, intruder.accessToken);
    await expect(c.send(`/pub/chat/${owner.chatRoomId}/message`, JSON.stringify({ content: 'hi' }))).rejects.toThrow();
    expect(c.errors[0]?.headers['error-code']).toBe('WS005');
  });

  it('answers a frame over 64 KiB with ERROR WS102', async () => {
    const owner = await planFor(s, 'big@example.com');
    const c = await connect(s, owner.accessToken);
    await expect(c.send(`/pub/chat/${owner.chatRoomId}/message`, JSON.stringify({ content: 'x'.repeat(70 * 1024) }))).rejects.toThrow();
    expect(c.errors[0]?.headers['error-code']).toBe('WS102');
  });

  it('delivers to every session of the owner and to nobody else', async () => {
    const owner = await planFor(s, 'tabs@example.com');
    const secondTab = await s.signIn('tabs@example.com');
    const stranger = await planFor(s, 'stranger@example.com');
    const tab1 = await connect(s, owner.accessToken);
    const tab2 = await connect(s, secondTab.accessToken);
    const other = await connect(s, stranger.accessToken);
    await subscribeAll(tab1, owner);
    await subscribeAll(tab2, owner);
    await subscribeAll(other, stranger);
    await s.request('POST', `/api/v1/trips/${owner.tripPlanId}`, { token: owner.accessToken });
    await tab1.waitFor(isChat('COMPLETED'));
    await tab2.waitFor(isChat('COMPLETED'));
    expect(tab2.messages.map((m) => m.body)).toEqual(tab1.messages.map((m) => m.body));
    expect(other.messages).toEqual([]);
  });

  it('closes a connection with ERROR WS002 when its session logs out or its token expires', async () => {
    const fast = await server({ STOMP_SESSION_CHECK_MS: '20' });
    const leaving = await fast.signIn('logout@example.com');
    const c1 = await connect(fast, leaving.accessToken);
    await fast.request('POST', '/api/v1/auth/logout', { token: leaving.accessToken });
    await c1.closed;
    expect(c1.errors[0]?.headers['error-code']).toBe('WS002');

    const expiring = await fast.signIn('expiry@example.com');
    const c2 = await connect(fast, expiring.accessToken);
    fast.advance(3601 * 1000);
    await c2.closed;
    expect(c2.errors[0]?.headers['error-code']).toBe('WS002');
  });

  it('closes a peer that stops sending heart-beats with ERROR WS102', async () => {
    const hb = await server({ STOMP_HEARTBEAT_MS: '50' });
    const tokens = await hb.signIn('silent@example.com');
    const socket = new WebSocket(wsUrl(hb.url), ['v12.stomp']);
    let received = '';
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    socket.on('message', (data) => {
      received += webSocketText(data);
      // Once connected, the peer goes silent and the server's clock moves past the agreed interval.
      if (received.startsWith('CONNECTED')) hb.advance(1000);
    });
    await new Promise((resolve) => socket.on('open', resolve));
    socket.send(`CONNECT\naccept-version:1.2\nheart-beat:50,50\nAuthorization:Bearer ${tokens.accessToken}\n\n\0`);
    expect(await closed).toBe(1002);
    expect(received).toMatch(/ERROR\n[^\0]*error-code:WS102/);
    expect(received).toContain('No heart-beat');
    expectDocumentedFrames(createFrameReader()(received));
  });

  it('negotiates heart-beats: the server sends them when asked', async () => {
    const hb = await server({ STOMP_HEARTBEAT_MS: '500' });
    const tokens = await hb.signIn('heart@example.com');
    expect(await heartBeatsReceived(wsUrl(hb.url), tokens.accessToken, 500, 2)).toBe('500,500');
  });
});

describe('the access token on the WebSocket upgrade request (asyncapi.yaml, securitySchemes.bearerAuth)', () => {
  afterAll(retireServers);
  let s: TestServer;
  beforeAll(async () => {
    s = await server();
  });

  it('accepts a CONNECT without Authorization when the upgrade request carried the token, as the member of that token', async () => {
    const plan = await planFor(s, 'upgrade@example.com');
    const me = bodyOf(await s.request('GET', '/api/v1/members/me', { token: plan.accessToken }), 'getMe', 200).data as { id: number };
    const c = await connect(s, null, { upgradeToken: plan.accessToken });
    expect(c.client.connected).toBe(true);
    expect(c.frames[0]).toMatchObject({ command: 'CONNECTED', headers: { 'user-name': String(me.id) } });
    await subscribeAll(c, plan);
    expect((await s.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token: plan.accessToken })).status).toBe(200);
    await c.waitFor(isChat('COMPLETED'));
    expectValidMessages(c.messages);
  });

  it('lets the CONNECT header win when both carry a token, whichever of the two is the bad one', async () => {
    const { accessToken } = await s.signIn('both@example.com');
    const goodConnect = await connect(s, accessToken, { upgradeToken: 'garbage.not-a.jwt' });
    expect(goodConnect.client.connected).toBe(true);
    const badConnect = await connect(s, 'garbage.not-a.jwt', { upgradeToken: accessToken });
    expect(badConnect.errors[0]?.headers['error-code']).toBe('WS001');
    await badConnect.closed;
  });

  it('opens the WebSocket for a bad upgrade token and answers its CONNECT with ERROR WS001 (never a 401 on the upgrade)', async () => {
    const { accessToken } = await s.signIn('expired-upgrade@example.com');
    for (const upgradeToken of ['garbage.not-a.jwt', accessToken]) {
      if (upgradeToken === accessToken) s.advance(3601 * 1000); // the real token, expired by now
      const c = await connect(s, null, { upgradeToken });
      expect(c.frames.map((f) => [f.command, f.headers['error-code']])).toEqual([['ERROR', 'WS001']]);
      await c.closed;
    }
  });
});

describe('cancel, failure and crash recovery', () => {
  afterAll(retireServers);
  /** A planner that takes its time, so a run can be cancelled midway. */
  function slowPlanner(inner: Planner, msPerDay: number): Planner {
    return {
      name: 'slow',
      async *plan(request, signal) {
        for await (const day of inner.plan(request, signal)) {
          await abortableDelay(msPerDay, signal);
          yield day;
        }
      },
      summarize: (day, request, signal) => inner.summarize(day, request, signal),
    };
  }

  it('cancel mid-run sends CANCELLED, stops, and leaves the plan CANCELLED', async () => {
    const { createOfflinePlanner } = await import('../../src/generation/offline/offlinePlanner.js');
    let planner!: Planner;
    const s = await startTestServer(
      {},
      { planner: { name: 'lazy', plan: (r, sig) => planner.plan(r, sig), summarize: (d, r, sig) => planner.summarize(d, r, sig) } },
    );
    servers.push(s);
    planner = slowPlanner(createOfflinePlanner({ db: s.app.services.db, delayMs: 0 }), 150);
    const plan = await planFor(s, 'canceller@example.com', { ...busanTrip, duration: 5 });
    const c = await connect(s, plan.accessToken);
    await subscribeAll(c, plan);
    await s.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token: plan.accessToken });
    await c.waitFor((m) => jsonAt(m.body, 'type') === 'DAILY_PLAN_GENERATED');
    expect((await s.request('POST', `/api/v1/trips/${plan.tripPlanId}/cancel`, { token: plan.accessToken })).status).toBe(200);
    await c.waitFor(isChat('CANCELLED'));
    await s.app.worker.idle();
    const days = c.messages.filter((m) => jsonAt(m.body, 'type') === 'DAILY_PLAN_GENERATED').length;
    expect(days).toBeLessThan(5);
    expect(jsonAt(c.messages.at(-1)?.body, 'messageStreamType')).toBe('CANCELLED');
    expect(bodyOf(await s.request('GET', `/api/v1/trips/${plan.tripPlanId}`, { token: plan.accessToken }), 'getTripPlan', 200).data.generationStatus).toBe(
      'CANCELLED',
    );
    expectValidMessages(c.messages);
    // A restart from CANCELLED runs again from day 1.
    expect((await s.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token: plan.accessToken })).status).toBe(200);
  });

  it('a planner failure sends AI002 on the errors channel, nothing after it, and the plan is FAILED', async () => {
    const failing: Planner = {
      name: 'failing',
      async *plan(request) {
        yield { dayNumber: 1, date: request.startDate, title: 'Day 1', description: 'One day.', stops: [] } satisfies PlannedDay;
        throw new PlannerError('The planner ran out of ideas.');
      },
      async *summarize(day) {
        yield day.description;
      },
    };
    const s = await server({}, failing);
    const plan = await planFor(s, 'unlucky@example.com');
    const c = await connect(s, plan.accessToken);
    await subscribeAll(c, plan);
    await s.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token: plan.accessToken });
    const error = await c.waitFor((m) => m.destination.includes('/errors/'));
    await s.app.worker.idle();
    expect(error.body).toMatchObject({ code: 'AI002', message: 'The planner ran out of ideas.', path: `/user/sub/errors/${plan.chatRoomId}`, errors: null });
    expect(c.messages.at(-1)).toBe(error);
    expectValidMessages(c.messages);
    expect(bodyOf(await s.request('GET', `/api/v1/trips/${plan.tripPlanId}`, { token: plan.accessToken }), 'getTripPlan', 200).data.generationStatus).toBe(
      'FAILED',
    );
    expect(
      bodyOf(await s.request('GET', `/api/v1/trips/daily-plans/${plan.tripPlanId}`, { token: plan.accessToken }), 'listDailyPlans', 200).data,
    ).toHaveLength(1);
  });

  // Its two instances share a SQLite file of their own whichever engine the project tests: one run is enough.
  const onItsOwnSqliteFile = it.skipIf(testEngine === 'postgres');
  onItsOwnSqliteFile(
    'a plan left GENERATING by a crash is not touched by the next start while its lease runs; once it ran out, the sweeper fails it (AI002)',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-crash-'));
      const env = { DATABASE_URL: path.join(dir, 'db.sqlite'), GENERATION_SWEEP_MS: '20' };
      const never: Planner = {
        name: 'never',
        async *plan(_request, signal) {
          await abortableDelay(60_000, signal);
        },
        async *summarize() {},
      };
      // The crashing instance keeps where its logs began in memory: its stop below, with its database
      // closed, would otherwise ask the database for that for 20 s (epochStarts.ts) before sending an
      // AI002 that a killed process never sends. The next start reads nothing of it.
      const crashing = {
        planner: never,
        planLog: (broker: Broker) =>
          createInMemoryPlanLog({ broker, starts: createInMemoryLogStarts(), historySize: 100, historyTtlMs: 60_000, clock: Date.now }),
      };
      const first = await startTestServer(env, crashing);
      const plan = await planFor(first, 'crash@example.com');
      await first.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token: plan.accessToken });
      expect(
        bodyOf(await first.request('GET', `/api/v1/trips/${plan.tripPlanId}`, { token: plan.accessToken }), 'getTripPlan', 200).data.generationStatus,
      ).toBe('GENERATING');
      // The process dies: no status update is written. (A graceful stop would mark it FAILED itself,
      // so the database goes first, as in a kill.)
      void first.app.services.db.close();
      await first.stop();
      const second = await startTestServer(env);
      servers.push(second);
      const status = async () =>
        bodyOf(await second.request('GET', `/api/v1/trips/${plan.tripPlanId}`, { token: plan.accessToken }), 'getTripPlan', 200).data.generationStatus;
      // The lease (GENERATION_LEASE_MS, 30 s) may belong to a live instance: the start-up and the
      // sweeps of the next 100 ms (every 20 ms) leave it alone.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await status()).toBe('GENERATING');
      second.advance(30_001);
      await expect.poll(status, { timeout: 10_000 }).toBe('FAILED');
      expect((await second.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token: plan.accessToken })).status).toBe(200);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  );
});
