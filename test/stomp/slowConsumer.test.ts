// A client that stops reading is disconnected instead of having its frames buffered without bound.
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/kernel/logger.js';
import { sendUnlessSlow, type OutgoingSocket } from '../../src/stomp/stompEndpoint.js';

function fakeSocket(bufferedAmount: number, readyState = 1) {
  const sent: string[] = [];
  const closed: [number, string][] = [];
  const socket: OutgoingSocket = { readyState, OPEN: 1, bufferedAmount, send: (t) => void sent.push(t), close: (c, r) => void closed.push([c, r]) };
  return { socket, sent, closed };
}

const log = createLogger('silent');

describe('sendUnlessSlow', () => {
  it('sends while the backlog is under the limit', () => {
    const { socket, sent, closed } = fakeSocket(1000);
    expect(sendUnlessSlow(socket, 'MESSAGE', 4096, log)).toBe(true);
    expect([sent, closed]).toEqual([['MESSAGE'], []]);
  });

  it('sends ERROR WS108 and closes with 1013 instead of buffering past the limit', () => {
    const { socket, sent, closed } = fakeSocket(5000);
    expect(sendUnlessSlow(socket, 'MESSAGE', 4096, log)).toBe(false);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^ERROR\n[^\0]*error-code:WS108\n/);
    expect(closed).toEqual([[1013, 'slow consumer']]);
  });

  it('sends nothing on a socket that is no longer open', () => {
    const { socket, sent, closed } = fakeSocket(0, 3);
    expect(sendUnlessSlow(socket, 'MESSAGE', 4096, log)).toBe(false);
    expect([sent, closed]).toEqual([[], []]);
  });
});
