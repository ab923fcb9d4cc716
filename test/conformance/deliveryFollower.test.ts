// The delivery phase's follower tells a connection that dies under its SUBSCRIBE (an instance
// killed while the follower resubscribes, or the server's ERROR that tells a loss, WS110) from a
// SUBSCRIBE the server refuses: the first is a lost segment the next connection makes up for, the
// second a gap the judge reports. A STOMP server of a few lines stands in for the instance: it
// answers CONNECT, then at the first SUBSCRIBE closes the socket without an ERROR frame (as a killed
// process does), or answers it with ERROR WS110 or WS004 and closes.
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { afterEach, expect, it } from 'vitest';
import { startFollower, type Follower } from '../../conformance/runner/phases/delivery/follower.js';
import { webSocketText } from '../support/webSocketText.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function instanceThatAnswersSubscribe(answer: 'dies' | 'tells a loss' | 'refuses'): Promise<string> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: (protocols) => [...protocols][0] ?? false });
  server.on('connection', (socket) => {
    socket.on('message', (data) => {
      const command = webSocketText(data).split('\n')[0];
      if (command === 'CONNECT' || command === 'STOMP') socket.send('CONNECTED\nversion:1.2\nheart-beat:0,0\n\n\0');
      else if (command === 'SUBSCRIBE' && answer === 'dies') socket.terminate();
      else if (command === 'SUBSCRIBE' && answer === 'tells a loss') socket.send('ERROR\nerror-code:WS110\nmessage:lost\n\n\0', () => socket.close());
      else if (command === 'SUBSCRIBE') socket.send('ERROR\nerror-code:WS004\nmessage:not yours\n\n\0', () => socket.close());
    });
  });
  await new Promise((resolve) => server.once('listening', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws-stomp`;
}

async function firstSegmentOn(wsUrl: string) {
  const follower: Follower = await startFollower(
    {
      name: 'f',
      token: 't',
      logs: [{ name: 'plan', destinations: ['/user/sub/schedule/1'], position: { epochHeader: 'x-epoch', offsetHeader: 'x-offset' } }],
      instances: [{ baseUrl: wsUrl.replace('ws:', 'http:'), wsUrl }],
      options: { timeoutMs: 5000 },
      first: 'live',
      endsRun: () => false,
      lossErrorCode: 'WS110',
    },
    0,
  );
  await follower.stop();
  return follower.segments[0]!.subscriptions[0]!;
}

it('takes a connection that dies under its SUBSCRIBE as lost, not as a refusal', async () => {
  const subscription = await firstSegmentOn(await instanceThatAnswersSubscribe('dies'));
  expect([subscription.lostBeforeReceipt, subscription.refused]).toEqual([true, undefined]);
});

it('takes the ERROR that tells a loss under its SUBSCRIBE as lost, not as a refusal', async () => {
  const subscription = await firstSegmentOn(await instanceThatAnswersSubscribe('tells a loss'));
  expect([subscription.lostBeforeReceipt, subscription.refused]).toEqual([true, undefined]);
});

it('takes another ERROR frame under its SUBSCRIBE as a refusal', async () => {
  const subscription = await firstSegmentOn(await instanceThatAnswersSubscribe('refuses'));
  expect([subscription.lostBeforeReceipt, subscription.refused]).toEqual([undefined, expect.stringContaining('WS004')]);
});
