// The connection's plain operations against the real server: send() resolves on the SEND's RECEIPT
// (the answer to a refused chat message comes on the errors channel), and a SUBSCRIBE the server
// refuses (another member's room: ERROR WS004) rejects with its code while the connection comes
// back and the other subscriptions go on.
import { afterEach, expect, it } from 'vitest';
import WebSocket from 'ws';
import { connectRealtime, RealtimeError, type RealtimeEvents } from '../../client/src/realtime/index.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { operationCaller, planOf, sessionOn, until, wsUrl, type Session } from './realtimeServers.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function connected(server: TestServer, session: Session) {
  const connection = await connectRealtime({
    url: wsUrl(server.url),
    webSocket: WebSocket,
    accessToken: () => session.accessToken(),
    reissue: () => session.reissue(),
    callOperation: operationCaller(server, session),
    reconnectDelayMs: 50,
  });
  cleanups.push(() => connection.close());
  return connection;
}

it('send() resolves on its RECEIPT; the refusal of a blank chat message comes on the errors channel', async () => {
  const server = await startTestServer();
  cleanups.push(() => server.stop());
  const session = await sessionOn(server, 'send@example.com');
  const plan = await planOf(server, session);
  const connection = await connected(server, session);
  const codes: string[] = [];
  await connection.subscribe('errors', { chatRoomId: plan.chatRoomId }, { onMessage: (m) => codes.push(m.code) });

  await connection.send('chatMessages', { chatRoomId: plan.chatRoomId }, { content: ' ', messageContentType: 'TEXT' });
  await until(() => codes.length === 1, 'the refusal');
  expect(codes).toEqual(['CHAT102']);
});

it('a SUBSCRIBE the server refuses rejects with its code; the connection comes back and the other subscriptions go on', async () => {
  const server = await startTestServer();
  cleanups.push(() => server.stop());
  const session = await sessionOn(server, 'mine@example.com');
  const mine = await planOf(server, session);
  const theirs = await planOf(server, await sessionOn(server, 'theirs@example.com'));
  const connection = await connected(server, session);
  const codes: string[] = [];
  await connection.subscribe('errors', { chatRoomId: mine.chatRoomId }, { onMessage: (m) => codes.push(m.code) });
  const refused: RealtimeEvents['subscriptionRefused'][] = [];
  connection.on('subscriptionRefused', (e) => refused.push(e));
  let reconnected = false;
  connection.on('connected', (e) => (reconnected = e.reconnected));

  const attempt = connection.subscribe('chatStream', { chatRoomId: theirs.chatRoomId }, { onMessage: () => undefined });
  await expect(attempt).rejects.toBeInstanceOf(RealtimeError);
  await expect(attempt).rejects.toMatchObject({ code: 'WS004' });
  expect(refused).toEqual([{ channel: 'chatStream', parameters: { chatRoomId: theirs.chatRoomId }, errorCode: 'WS004' }]);
  await until(() => reconnected, 'connected again');

  await connection.send('chatMessages', { chatRoomId: mine.chatRoomId }, { content: ' ', messageContentType: 'TEXT' });
  await until(() => codes.length === 1, 'the errors channel still followed');
});
