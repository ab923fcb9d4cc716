// Replay on SUBSCRIBE (asyncapi.yaml, "Late subscribers and reconnects") through the real STOMP
// endpoint, on the embedded plan log and on the Redis one (the app's planLog port; skipped with a
// printed reason when Redis does not answer): a late subscriber with x-replay gets the whole run,
// a reconnect with x-since what it missed, a lost history x-recovered false, and a plain SUBSCRIBE
// nothing old. Every frame is also checked against the spec (documented headers only).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/kernel/logger.js';
import type { AppPorts } from '../../src/composition/app.js';
import { describeOnRedis, freshRedisSpace, redisPlanLogOn, type FreshRedisSpace } from '../support/redis.js';
import { frameProblems } from '../support/documentedFrames.js';
import { openRawStomp } from '../support/rawStompSocket.js';
import { connectStomp, wsUrl, type ReceivedMessage, type StompTestClient } from '../support/stompTestClient.js';
import { busanTrip } from '../support/testApp.js';
import { startTestServer, type TestServer } from '../support/testServer.js';

interface Plan {
  tripPlanId: number;
  chatRoomId: number;
}

const destinationsOf = (plan: Plan) => [`/user/sub/schedule/${plan.tripPlanId}`, `/user/sub/chat/${plan.chatRoomId}`, `/user/sub/errors/${plan.chatRoomId}`];
/** what identifies a message across subscribers: its place in its log and its body */
const identity = (m: ReceivedMessage) => `${m.destination} ${m.headers['x-epoch']}:${m.headers['x-offset']} ${m.raw}`;
const on = (messages: ReceivedMessage[], destination: string) => messages.filter((m) => m.destination === destination);
/** a field of a message's JSON body */
const field = (m: ReceivedMessage, name: 'messageStreamType' | 'code' | 'type'): unknown => (m.body as Record<string, unknown> | undefined)?.[name];
const isEnd = (m: ReceivedMessage) =>
  field(m, 'messageStreamType') === 'COMPLETED' || field(m, 'messageStreamType') === 'CANCELLED' || field(m, 'code') === 'AI002';

/** The app's plan log for a suite, and what to clean up after it. */
type PlanLogPort = () => Promise<{ port?: AppPorts['planLog']; done: () => Promise<void> }>;

const embedded: PlanLogPort = () => Promise.resolve({ done: () => Promise.resolve() });

const onRedis: PlanLogPort = async () => {
  const space: FreshRedisSpace = await freshRedisSpace();
  const log = createLogger('silent');
  return {
    port: (broker, starts) => redisPlanLogOn(space.url, { broker, historySize: 1000, historyTtlSeconds: 3600, log, starts, keyPrefix: space.keyPrefix }),
    done: () => space.drop(),
  };
};

describe('replay on SUBSCRIBE (embedded plan log)', () => replaySuite(embedded));
describeOnRedis('replay on SUBSCRIBE (Redis plan log)', () => replaySuite(onRedis));

function replaySuite(planLog: PlanLogPort): void {
  let s: TestServer;
  let token: string;
  let done: () => Promise<void>;
  const clients: StompTestClient[] = [];
  const connect = async () => {
    const client = await connectStomp(wsUrl(s.url), token);
    clients.push(client);
    return client;
  };

  async function newPlan(): Promise<Plan> {
    return (await s.request<{ data: Plan }>('POST', '/api/v1/trips', { token, body: busanTrip })).body.data;
  }

  /** Subscribes to the plan's three channels, runs a generation to its end, and returns every message. */
  async function generateWatched(plan: Plan): Promise<ReceivedMessage[]> {
    const live = await connect();
    for (const destination of destinationsOf(plan)) await live.subscribe(destination);
    expect((await s.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token })).status).toBe(200);
    await live.waitFor(isEnd, 20_000);
    return live.messages;
  }

  beforeAll(async () => {
    const log = await planLog();
    done = log.done;
    s = await startTestServer({ PLANNER_DELAY_MS: '1' }, log.port ? { planLog: log.port } : {});
    token = (await s.signIn('replay@example.com')).accessToken;
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.disconnect()));
    await s.stop();
    await done();
  });

  it('numbers a run 1, 2, 3 ... across schedule and errors, and the chat on its own, each message with its epoch', async () => {
    const plan = await newPlan();
    const messages = await generateWatched(plan);
    const [schedule, chat] = destinationsOf(plan).map((d) => on(messages, d));
    expect(schedule!.map((m) => Number(m.headers['x-offset']))).toEqual([1, 2, 3]);
    expect(chat!.map((m) => Number(m.headers['x-offset']))).toEqual(chat!.map((_, i) => i + 1));
    expect(new Set(schedule!.map((m) => m.headers['x-epoch'])).size).toBe(1);
    expect(schedule![0]!.headers['x-epoch']).not.toBe(chat![0]!.headers['x-epoch']);
  });

  it('a late subscriber with x-replay: all gets the whole run, as a live subscriber got it, then RECEIPT x-recovered: true', async () => {
    const plan = await newPlan();
    const live = await generateWatched(plan);
    const late = await connect();
    for (const destination of destinationsOf(plan)) {
      expect(await late.subscribeReplaying(destination, { 'x-replay': 'all' })).toMatchObject({ recovered: 'true' });
      expect(on(late.messages, destination).map(identity)).toEqual(on(live, destination).map(identity));
    }
    expect(late.frames.flatMap((f) => frameProblems(f))).toEqual([]);
  });

  it('a plain SUBSCRIBE gets nothing old', async () => {
    const plan = await newPlan();
    await generateWatched(plan);
    const plain = await connect();
    for (const destination of destinationsOf(plan)) await plain.subscribe(destination);
    // A new message on the errors channel: anything old the subscriptions were sent came before it.
    await plain.send(`/pub/chat/${plan.chatRoomId}/message`, '{"content":" "}');
    await plain.waitFor((m) => field(m, 'code') === 'CHAT102');
    expect(plain.messages.map((m) => field(m, 'code'))).toEqual(['CHAT102']);
    expect(plain.frames.find((f) => f.command === 'RECEIPT' && 'x-recovered' in f.headers)).toBeUndefined();
  });

  it('a reconnect with x-since gets exactly what came after it, the epoch:offset sent escaped or not', async () => {
    const plan = await newPlan();
    const live = await generateWatched(plan);
    const chatDestination = destinationsOf(plan)[1]!;
    const chat = on(live, chatDestination);
    const seen = chat[4]!;
    const since = `${seen.headers['x-epoch']}:${seen.headers['x-offset']}`;

    // stompjs escapes the `:` as `\c` (STOMP 1.2)
    const again = await connect();
    expect(await again.subscribeReplaying(chatDestination, { 'x-since': since })).toMatchObject({ recovered: 'true' });
    expect(again.messages.map(identity)).toEqual(chat.slice(5).map(identity));

    const raw = await openRawStomp(s.url, token);
    raw.send(`SUBSCRIBE\nid:s1\ndestination:${chatDestination}\nx-since:${since.replace(':', '\\c')}\nreceipt:r1\n\n\0`);
    expect(await raw.receiptOrClose('r1')).toBe('RECEIPT');
    expect(raw.frames.filter((f) => f.command === 'MESSAGE').map((f) => f.headers['x-offset'])).toEqual(chat.slice(5).map((m) => m.headers['x-offset']));
    expect(raw.frames.find((f) => f.command === 'RECEIPT')?.headers['x-recovered']).toBe('true');
    raw.close();
  });

  it('an unknown epoch: RECEIPT x-recovered: false and nothing old; live messages still come', async () => {
    const plan = await newPlan();
    await generateWatched(plan);
    const lost = await connect();
    const errors = destinationsOf(plan)[2]!;
    expect(await lost.subscribeReplaying(errors, { 'x-since': 'restarted:12' })).toMatchObject({ recovered: 'false' });
    await lost.send(`/pub/chat/${plan.chatRoomId}/message`, '{"content":" "}');
    await lost.waitFor((m) => field(m, 'code') === 'CHAT102');
    expect(lost.messages.map((m) => field(m, 'code'))).toEqual(['CHAT102']);
    expect(lost.frames.flatMap((f) => frameProblems(f))).toEqual([]);
  });

  it('a new run of the plan is a new epoch, from offset 1; x-since of the old run is not recovered', async () => {
    const plan = await newPlan();
    const live = await connect();
    for (const destination of destinationsOf(plan)) await live.subscribe(destination);
    expect((await s.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token })).status).toBe(200);
    await live.waitFor((m) => field(m, 'type') === 'DAILY_PLAN_GENERATED');
    expect((await s.request('POST', `/api/v1/trips/${plan.tripPlanId}/cancel`, { token })).status).toBe(200);
    const cancelled = await live.waitFor(isEnd);
    expect(field(cancelled, 'messageStreamType')).toBe('CANCELLED');
    const firstRunSchedule = on(live.messages, destinationsOf(plan)[0]!)[0]!;

    const second = await generateWatched(plan);
    const schedule = on(second, destinationsOf(plan)[0]!).slice(-3);
    expect(schedule.map((m) => m.headers['x-offset'])).toEqual(['1', '2', '3']);
    expect(schedule[0]!.headers['x-epoch']).not.toBe(firstRunSchedule.headers['x-epoch']);

    const late = await connect();
    const since = `${firstRunSchedule.headers['x-epoch']}:${firstRunSchedule.headers['x-offset']}`;
    expect(await late.subscribeReplaying(destinationsOf(plan)[0]!, { 'x-since': since })).toMatchObject({ recovered: 'false' });
    expect(late.messages).toEqual([]);
  });

  it('subscribers with x-replay: all racing the generation each get the whole sequence, no gap, no duplicate', async () => {
    const plan = await newPlan();
    const [, chatDestination] = destinationsOf(plan);
    const live = await connect();
    await live.subscribe(chatDestination!);
    expect((await s.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token })).status).toBe(200);
    const racers: StompTestClient[] = [];
    // Join at different points of the run: after the 1st, 2nd, 4th, ... message the live subscriber saw.
    for (const seen of [1, 2, 4, 8, 16, 32]) {
      await live.waitFor(() => live.messages.length >= seen || live.messages.some(isEnd), 20_000);
      const racer = await connect();
      await racer.subscribeReplaying(chatDestination!, { 'x-replay': 'all' });
      racers.push(racer);
    }
    await live.waitFor(isEnd, 20_000);
    for (const racer of racers) {
      await racer.waitFor(isEnd, 20_000);
      expect(racer.messages.map(identity)).toEqual(live.messages.map(identity));
    }
  });

  it('refuses a malformed or doubled replay header with ERROR WS102', async () => {
    const plan = await newPlan();
    const destination = destinationsOf(plan)[0]!;
    for (const headers of ['x-replay:everything', 'x-since:abc', 'x-since:a\\cb\\c1', 'x-since:abc\\c01', 'x-replay:all\nx-since:abc\\c1']) {
      const raw = await openRawStomp(s.url, token);
      raw.send(`SUBSCRIBE\nid:s1\ndestination:${destination}\n${headers}\nreceipt:r1\n\n\0`);
      expect(await raw.receiptOrClose('r1')).toBe('closed');
      expect(raw.errorCode()).toBe('WS102');
    }
  });
}
