// Replay on SUBSCRIBE in `npm run mock`, as in the service: each start is a run with its own
// epoch, offsets from 1, and a late subscriber with x-replay: all gets the run again.
import { afterAll, expect, it } from 'vitest';
import { startMockServer, type RunningMock } from '../../../tools/mock/mockServer.js';
import { connectStomp, wsUrl, type ReceivedMessage, type StompTestClient } from '../../support/stompTestClient.js';

const token = 'mock-client-token';
const mocks: RunningMock[] = [];
const clients: StompTestClient[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.disconnect()));
  await Promise.all(mocks.map((m) => m.close()));
});

const isEnd = (m: ReceivedMessage) => ['COMPLETED', 'CANCELLED'].includes(String((m.body as { messageStreamType?: unknown } | undefined)?.messageStreamType));
const position = (m: ReceivedMessage) => `${m.headers['x-epoch']}:${m.headers['x-offset']}`;

it('each start of a plan is a new epoch from offset 1, and x-replay: all replays it', async () => {
  const mock = await startMockServer(0, '127.0.0.1', { NODE_ENV: 'test', LOG_LEVEL: 'silent', MOCK_STREAM_DELAY_MS: '0' });
  mocks.push(mock);
  const connect = async () => {
    const c = await connectStomp(wsUrl(mock.url), token);
    clients.push(c);
    return c;
  };
  const start = () => fetch(`${mock.url}/api/v1/trips/7`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  const runs: ReceivedMessage[][] = [];
  for (let i = 0; i < 2; i++) {
    const live = await connect();
    await live.subscribe('/user/sub/chat/7');
    expect((await start()).status).toBe(200);
    await live.waitFor(isEnd);
    runs.push(live.messages);
    await mock.mock.generation.idle();
  }
  const [first, second] = runs.map((messages) => messages.map(position));
  expect(first![0]!.endsWith(':1') && second![0]!.endsWith(':1')).toBe(true);
  expect(first![0]!.split(':')[0]).not.toBe(second![0]!.split(':')[0]);

  const late = await connect();
  expect(await late.subscribeReplaying('/user/sub/chat/7', { 'x-replay': 'all' })).toMatchObject({ recovered: 'true' });
  expect(late.messages.map((m) => `${position(m)} ${m.raw}`)).toEqual(runs[1]!.map((m) => `${position(m)} ${m.raw}`));
});
