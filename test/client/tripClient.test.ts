// createTripClient(): the package as a client team uses it, both halves bound together: against the
// real server (a whole generation, read back over HTTP; an access token that expires in the middle
// of the stream, reissued through the HTTP half's reissueToken), and against the mock (the same
// program, with the mock dropping the connection mid-run and answering 503 before it answers).
import { WebSocket } from 'ws';
import { afterEach, expect, it } from 'vitest';
import {
  createTripClient,
  receiveChatStream,
  sendChatMessage,
  type ChannelPayloads,
  type CreateTripPlanSessionInput,
  type TripClient,
  type TripClientOptions,
} from '../../client/src/index.js';
import { startMockServer } from '../../tools/mock/mockServer.js';
import { startTestServer } from '../support/testServer.js';

const stops: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

function clientOf(options: TripClientOptions): TripClient {
  const client = createTripClient({ webSocket: WebSocket, reconnectDelayMs: 50, ...options });
  stops.push(() => client.close());
  return client;
}

// As the README's create body: `transportation` left to its default.
const busanTrip: CreateTripPlanSessionInput['body'] = {
  themes: ['FAMOUS_SPOT', 'RESTAURANT'],
  startDate: '2026-12-24',
  duration: 3,
  region: 'Busan',
  peopleCount: 2,
};

/** Signs in with dev-login and creates a plan: what every program does first. */
async function signedInPlan(client: TripClient, email: string) {
  const login = await client.operations.devLogin({ body: { email } });
  if (!login.ok) throw new Error(`devLogin: ${login.status}`);
  const created = await client.operations.createTripPlanSession({ body: busanTrip });
  if (!created.ok) throw new Error(`createTripPlanSession: ${created.status} ${created.error?.code}`);
  return created.data;
}

/** The day numbers generate() handed to onDay, and the positions of every chat message. */
function watched() {
  const days: number[] = [];
  const chatPositions: string[] = [];
  return {
    days,
    chatPositions,
    onDay: (m: ChannelPayloads['scheduleUpdates']) => void ('dailyPlan' in m && m.dailyPlan && days.push(m.dailyPlan.dayNumber)),
    onChat: (_m: unknown, p: { epoch: string; offset: number } | null) => void chatPositions.push(`${p?.epoch}:${p?.offset}`),
  };
}

it('streams a generation with generate() and reads the same days back over HTTP', async () => {
  const server = await startTestServer();
  stops.push(() => server.stop());
  const client = clientOf({ baseUrl: server.url });
  const plan = await signedInPlan(client, 'trip-client@example.com');
  const seen = watched();

  const outcome = await client.generate(plan, seen);

  expect(outcome).toBe('completed');
  expect(seen.days).toEqual([1, 2, 3]);
  const saved = await client.operations.listDailyPlans({ path: { tripPlanId: plan.tripPlanId } });
  expect(saved.ok && saved.data.map((day) => day.dayNumber)).toEqual([1, 2, 3]);
});

it('reissues an access token that expires mid-stream through reissueToken, and every day still arrives once', async () => {
  // The token lives a minute of the server's clock; the summaries are slow enough that the run is
  // still going when the clock jumps past it after day 1.
  const server = await startTestServer({ ACCESS_TOKEN_TTL_SECONDS: '60', GENERATION_LEASE_MS: '600000', PLANNER_DELAY_MS: '60' });
  stops.push(() => server.stop());
  const issued: string[] = [];
  const client = clientOf({ baseUrl: server.url, heartbeatMs: 0, onTokens: (pair) => void issued.push(pair.accessToken) });
  const plan = await signedInPlan(client, 'trip-client-reissue@example.com');
  const seen = watched();
  const dropped: (string | null)[] = [];
  (await client.realtime()).on('disconnected', (event) => void dropped.push(event.errorCode));

  const outcome = await client.generate(plan, {
    ...seen,
    onDay: (m) => {
      seen.onDay(m);
      if (seen.days.length === 1) server.advance(61_000);
    },
  });

  expect(outcome).toBe('completed');
  expect(dropped).toEqual(['WS002']);
  expect(issued).toHaveLength(2); // dev-login's pair, then the reissued one
  expect(seen.days).toEqual([1, 2, 3]);
  expect(new Set(seen.chatPositions).size).toBe(seen.chatPositions.length);
});

it('runs the same program against the mock, through a dropped connection and a 503', async () => {
  const mock = await startMockServer(0, '127.0.0.1', { NODE_ENV: 'test', LOG_LEVEL: 'silent', MOCK_STREAM_DELAY_MS: '0' });
  stops.push(() => mock.close());
  const retries: (number | null)[] = [];
  // The first connection is cut after its second message; its reconnect (same CONNECT headers) is not.
  const client = clientOf({
    baseUrl: mock.url,
    connectHeaders: { 'x-mock-fault': 'drop-after=2; id=trip-client-drop' },
    retry: { onRetry: (event) => void retries.push(event.status) },
  });
  const plan = await signedInPlan(client, 'trip-client-mock@example.com');
  const seen = watched();
  const connection = await client.realtime();
  const reconnects: boolean[] = [];
  connection.on('connected', (event) => void reconnects.push(event.reconnected));

  const outcome = await client.generate(plan, seen);

  expect(outcome).toBe('completed');
  expect(reconnects).toEqual([true]);
  // The mock's example run is one day; its chat messages arrive once each across the reconnect.
  expect(seen.days).toEqual([1]);
  expect(seen.chatPositions.length).toBeGreaterThan(1);
  expect(new Set(seen.chatPositions).size).toBe(seen.chatPositions.length);

  // A chat message by the generated operation functions of asyncapi.yaml: the mock answers with its example answer.
  const answers: string[] = [];
  await receiveChatStream(connection, { chatRoomId: plan.chatRoomId }, { onMessage: (m) => void (m.isComplete && answers.push(m.messageStreamType)) });
  await sendChatMessage(connection, { chatRoomId: plan.chatRoomId }, { content: 'What should I eat in Busan?', messageContentType: 'TEXT' });
  await expect.poll(() => answers).toEqual(['CHAT']);

  const listed = await client.operations.listTripPlans({ query: {}, headers: { 'x-mock-fault': 'status=503; retry-after=1; id=trip-client-503' } });
  expect([listed.ok, retries]).toEqual([true, [503]]);
  const plans = [];
  for await (const item of client.pages('listTripPlans', { query: {} })) plans.push(item.id);
  expect(plans.length).toBeGreaterThan(0);
});
