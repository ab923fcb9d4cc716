// The STOMP half of `npm run mock`, over a real socket with @stomp/stompjs: CONNECT and SUBSCRIBE
// with the service's rules, and after a start over HTTP the documented generation sequence built
// from asyncapi.yaml's examples for the started plan; chat answers, cancel and swap likewise. Every
// payload passes the generated message validators and every frame its documented message.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { bundle, jsonAt, jsonText, objectOrEmpty, readMessages } from '../../../conformance/specModel/index.js';
import { asyncapiPath } from '../../../codegen/specFiles.js';
import { matchChannel, channels } from '../../../generated/asyncapi.js';
import { messageValidators } from '../../../generated/validators.js';
import { startMockServer, type RunningMock } from '../../../tools/mock/mockServer.js';
import { frameProblems } from '../../support/documentedFrames.js';
import { connectStomp, heartBeatsReceived, wsUrl, type ReceivedMessage, type StompTestClient } from '../../support/stompTestClient.js';

const token = 'mock-client-token';
const examples = Object.fromEntries(readMessages(bundle(asyncapiPath)).map((m) => [m.name, Object.fromEntries(m.examples.map((e) => [e.name, e.payload]))]));

const mocks: RunningMock[] = [];
const clients: StompTestClient[] = [];

async function mockWith(env: Record<string, string> = {}): Promise<RunningMock> {
  const running = await startMockServer(0, '127.0.0.1', { NODE_ENV: 'test', LOG_LEVEL: 'silent', MOCK_STREAM_DELAY_MS: '0', ...env });
  mocks.push(running);
  return running;
}

async function connect(m: RunningMock, connectToken: string | null = token): Promise<StompTestClient> {
  const c = await connectStomp(wsUrl(m.url), connectToken);
  clients.push(c);
  return c;
}

async function subscribePlan(c: StompTestClient, tripPlanId: number): Promise<void> {
  for (const destination of [`/user/sub/schedule/${tripPlanId}`, `/user/sub/chat/${tripPlanId}`, `/user/sub/errors/${tripPlanId}`])
    await c.subscribe(destination);
}

const http = (m: RunningMock, method: string, path: string, body?: unknown) =>
  fetch(`${m.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

function expectValidPayloads(messages: ReceivedMessage[]): void {
  for (const m of messages) {
    const channel = matchChannel(m.destination)!;
    const validate = messageValidators[channels[channel.name].messages[0] as keyof typeof messageValidators];
    expect(validate(m.body), `${m.destination}: ${JSON.stringify(validate.errors)}`).toBe(true);
  }
}

/** schedule:TYPE:day, chat:TYPE:chunk|full, error:CODE; runs of chunks collapsed to one. */
function sequence(messages: ReceivedMessage[]): string[] {
  const items = messages.map((m) =>
    m.destination.includes('/schedule/')
      ? `schedule:${jsonText(jsonAt(m.body, 'type'))}:${jsonText(jsonAt(m.body, 'dailyPlan', 'dayNumber') ?? '-')}`
      : m.destination.includes('/errors/')
        ? `error:${jsonText(jsonAt(m.body, 'code'))}`
        : `chat:${jsonText(jsonAt(m.body, 'messageStreamType'))}:${jsonAt(m.body, 'isComplete') ? 'full' : 'chunk'}`,
  );
  return items.filter((item, i) => !(item === 'chat:CHAT:chunk' && items[i - 1] === 'chat:CHAT:chunk'));
}

afterEach(async () => {
  const used = clients.splice(0);
  await Promise.all(used.map((c) => c.disconnect()));
  for (const c of used) expect(c.frames.flatMap(frameProblems)).toEqual([]);
});
afterAll(async () => {
  for (const m of mocks) await m.close();
});

describe('mock STOMP: CONNECT and SUBSCRIBE with the rules of asyncapi.yaml', () => {
  let m: RunningMock;
  beforeAll(async () => {
    m = await mockWith();
  });

  it('refuses a CONNECT without a token, or with one that is not a bearer token, with ERROR WS001, then closes', async () => {
    for (const bad of [null, 'not a token{}']) {
      const c = await connect(m, bad);
      expect(c.errors.map((e) => e.headers['error-code'])).toEqual(['WS001']);
      await c.closed;
    }
  });

  it('accepts any bearer token as the member of the getMe example, on the v12.stomp subprotocol', async () => {
    const c = await connect(m);
    expect(c.frames[0]).toMatchObject({ command: 'CONNECTED', headers: { version: '1.2', 'user-name': '7' } });
    expect((c.client.webSocket as unknown as WebSocket).protocol).toBe('v12.stomp');
  });

  it('takes the token from the WebSocket upgrade request too, as the service does', async () => {
    const c = await connectStomp(wsUrl(m.url), null, { upgradeToken: token });
    clients.push(c);
    expect(c.frames[0]?.command).toBe('CONNECTED');
  });

  it('speaks the older subprotocols it documents and refuses a socket that offers none of them', async () => {
    const v11 = new WebSocket(wsUrl(m.url), ['v11.stomp']);
    await new Promise((resolve) => v11.once('open', resolve));
    expect(v11.protocol).toBe('v11.stomp');
    v11.close();
    const none = new WebSocket(wsUrl(m.url), ['mqtt']);
    await expect(new Promise((resolve, reject) => (none.once('open', resolve), none.once('error', reject)))).rejects.toThrow();
  });

  it('answers every SUBSCRIBE to a documented destination with its RECEIPT', async () => {
    const c = await connect(m);
    await subscribePlan(c, 42);
    expect(c.frames.filter((f) => f.command === 'RECEIPT')).toHaveLength(3);
  });

  it('refuses a destination no channel has, or an id that is not canonical, with ERROR WS004', async () => {
    for (const destination of ['/topic/everything', '/user/sub/schedule/042', '/user/sub/chat/+4']) {
      const c = await connect(m);
      await expect(c.subscribe(destination)).rejects.toThrow(/WS004/);
    }
  });

  it('negotiates heart-beats: sends them when the client asks', async () => {
    const hb = await mockWith({ STOMP_HEARTBEAT_MS: '500' });
    expect(await heartBeatsReceived(wsUrl(hb.url), token, 500, 2)).toBe('500,500');
  });
});

describe('mock STOMP: the documented generation after a start over HTTP', () => {
  let m: RunningMock;
  let c: StompTestClient;
  const tripPlanId = 7; // not the examples' 42: the ids of the started plan are substituted

  beforeAll(async () => {
    m = await mockWith();
    c = await connectStomp(wsUrl(m.url), token);
    await subscribePlan(c, tripPlanId);
    expect((await http(m, 'POST', `/api/v1/trips/${tripPlanId}`)).status).toBe(200);
    await c.waitFor((msg) => jsonAt(msg.body, 'messageStreamType') === 'COMPLETED');
    await m.mock.generation.idle();
  });
  afterAll(() => c.disconnect());

  it('streams, in the documented order: per day DAILY_PLAN_GENERATED, summary chunks, full summary; then COMPLETED', () => {
    const days = Object.values(examples.TripPlanProgressMessage!).filter((p) => jsonAt(p, 'type') === 'DAILY_PLAN_GENERATED');
    expect(days.length).toBeGreaterThan(0);
    expect(sequence(c.messages)).toEqual([
      ...days.flatMap((_d, i) => [`schedule:DAILY_PLAN_GENERATED:${i + 1}`, 'chat:CHAT:chunk', 'chat:CHAT:full']),
      'chat:COMPLETED:full',
    ]);
  });

  it('sends every message valid against the generated validators, to the started plan and its room', () => {
    expectValidPayloads(c.messages);
    expect(new Set(c.messages.map((msg) => msg.destination.split('/').pop()))).toEqual(new Set([String(tripPlanId)]));
    expect(c.messages.filter((msg) => jsonAt(msg.body, 'type')).every((msg) => jsonAt(msg.body, 'tripPlanId') === tripPlanId)).toBe(true);
    expect(c.frames.flatMap(frameProblems)).toEqual([]);
  });

  it('is built from the examples: the example day, the example chunk first, chunks that add up to the example summary, the example COMPLETED', () => {
    const [day, ...chat] = c.messages;
    expect(day!.body).toEqual({ ...objectOrEmpty(examples.TripPlanProgressMessage?.dailyPlanGenerated), tripPlanId });
    const chunks = chat
      .filter((msg) => jsonAt(msg.body, 'messageStreamType') === 'CHAT' && !jsonAt(msg.body, 'isComplete'))
      .map((msg) => jsonText(jsonAt(msg.body, 'message')));
    const full = chat.find((msg) => jsonAt(msg.body, 'messageStreamType') === 'CHAT' && jsonAt(msg.body, 'isComplete') === true)?.body;
    expect(chunks[0]).toBe(jsonAt(examples.ChatStreamDto?.chatChunk, 'message'));
    expect(chunks.join('')).toBe(jsonAt(full, 'message'));
    expect(jsonAt(full, 'message')).toBe(jsonAt(examples.ChatStreamDto?.chatFinal, 'message'));
    expect(c.messages.at(-1)!.body).toMatchObject({ ...objectOrEmpty(examples.ChatStreamDto?.completed), timestamp: expect.any(String) as unknown });
  });

  it('streams the same days the mock answers over HTTP', async () => {
    const streamed = c.messages.filter((msg) => jsonAt(msg.body, 'type') === 'DAILY_PLAN_GENERATED').map((msg) => jsonAt(msg.body, 'dailyPlan'));
    const listed = ((await (await http(m, 'GET', `/api/v1/trips/daily-plans/${tripPlanId}`)).json()) as { data: unknown[] }).data;
    expect(listed).toEqual(streamed);
  });

  it('answers a chat SEND with the example answer, in chunks and then in full', async () => {
    const start = c.messages.length;
    await c.send(`/pub/chat/${tripPlanId}/message`, JSON.stringify({ content: 'What is good to eat here?' }));
    const answer = await c.waitFor(
      (msg) => c.messages.indexOf(msg) >= start && jsonAt(msg.body, 'messageStreamType') === 'CHAT' && jsonAt(msg.body, 'isComplete') === true,
    );
    const after = c.messages.slice(start);
    expect(sequence(after)).toEqual(['chat:CHAT:chunk', 'chat:CHAT:full']);
    expect(jsonAt(answer.body, 'message')).toBe(jsonAt(examples.ChatStreamDto?.chatAnswer, 'message'));
    expect(
      after
        .filter((msg) => !jsonAt(msg.body, 'isComplete'))
        .map((msg) => jsonText(jsonAt(msg.body, 'message')))
        .join(''),
    ).toBe(jsonAt(answer.body, 'message'));
    expectValidPayloads(after);
  });

  it('puts CHAT102 (blank) and COMMON002 (not JSON) on the errors channel, as the service does', async () => {
    await c.send(`/pub/chat/${tripPlanId}/message`, JSON.stringify({ content: '  ' }));
    await c.waitFor((msg) => jsonAt(msg.body, 'code') === 'CHAT102');
    await c.send(`/pub/chat/${tripPlanId}/message`, '{not json');
    await c.waitFor((msg) => jsonAt(msg.body, 'code') === 'COMMON002');
    expectValidPayloads(c.messages);
  });

  it('announces a swap over HTTP as the service does: UPDATE_STARTED and UPDATED on the schedule channel, UPDATED on the chat', async () => {
    const start = c.messages.length;
    expect(
      (await http(m, 'PATCH', `/api/v1/trips/${tripPlanId}/daily-plans/1/scheduled-places`, { chatRoomId: tripPlanId, visitOrderA: 1, visitOrderB: 2 })).status,
    ).toBe(204);
    await c.waitFor((msg) => c.messages.indexOf(msg) >= start && jsonAt(msg.body, 'messageStreamType') === 'UPDATED');
    expect(sequence(c.messages.slice(start))).toEqual(['schedule:UPDATE_STARTED:-', 'schedule:UPDATED:1', 'chat:UPDATED:full']);
    expectValidPayloads(c.messages.slice(start));
  });

  it('answers a chat message the offline agent reads as an edit with the edit announced, then its confirmation in chunks and in full', async () => {
    const start = c.messages.length;
    await c.send(`/pub/chat/${tripPlanId}/message`, JSON.stringify({ content: 'swap stop 1 and 2 on day 1', messageContentType: 'TEXT' }));
    const confirmation = await c.waitFor(
      (msg) => c.messages.indexOf(msg) >= start && jsonAt(msg.body, 'messageStreamType') === 'CHAT' && jsonAt(msg.body, 'isComplete') === true,
    );
    const after = c.messages.slice(start);
    expect(sequence(after)).toEqual(['schedule:UPDATE_STARTED:-', 'schedule:UPDATED:1', 'chat:UPDATED:full', 'chat:CHAT:chunk', 'chat:CHAT:full']);
    expect(after[1]!.body).toEqual({ ...objectOrEmpty(examples.TripPlanProgressMessage?.updated), tripPlanId });
    expect(jsonAt(confirmation.body, 'message')).toBe(jsonAt(examples.ChatStreamDto?.updated, 'message'));
    expectValidPayloads(after);
  });
});

describe('mock STOMP: a run in progress', () => {
  it('refuses a chat message with TRIP106 while the plan is generating, and a cancel ends the run with CANCELLED only', async () => {
    // Each streamed message waits a minute, so the run is still in progress while the test acts.
    const slow = await mockWith({ MOCK_STREAM_DELAY_MS: '60000' });
    const c = await connect(slow);
    await subscribePlan(c, 5);
    expect((await http(slow, 'POST', '/api/v1/trips/5')).status).toBe(200);
    await c.send('/pub/chat/5/message', JSON.stringify({ content: 'Add a market, please' }));
    const refused = await c.waitFor((msg) => msg.destination === '/user/sub/errors/5');
    expect(refused.body).toMatchObject({ code: 'TRIP106', path: '/pub/chat/5/message', errors: null });
    expect((await http(slow, 'POST', '/api/v1/trips/5/cancel')).status).toBe(200);
    const cancelled = await c.waitFor((msg) => jsonAt(msg.body, 'messageStreamType') === 'CANCELLED');
    expect(cancelled.body).toMatchObject({ ...objectOrEmpty(examples.ChatStreamDto?.cancelled), timestamp: expect.any(String) as unknown });
    await slow.mock.generation.idle();
    expect(sequence(c.messages)).toEqual(['error:TRIP106', 'chat:CANCELLED:full']);
    expectValidPayloads(c.messages);
  });
});
