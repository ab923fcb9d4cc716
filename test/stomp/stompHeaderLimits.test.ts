// A client frame has at most 64 header lines, each at most 8 KiB (asyncapi.yaml, servers.stomp):
// beyond either limit the frame is refused with ERROR WS102 as soon as the limit is passed, without
// reading the rest of the frame, instead of being collected into thousands of headers or a huge value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createStompParser, MAX_STOMP_HEADER_LINE_BYTES, MAX_STOMP_HEADERS, StompFrameError } from '../../src/stomp/stompParser.js';
import { wsUrl } from '../support/stompTestClient.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { webSocketText } from '../support/webSocketText.js';

const MAX_FRAME = 64 * 1024;
const headerLines = (count: number) => Array.from({ length: count }, (_, i) => `h${i}:v\n`).join('');

function errorOf(action: () => unknown): StompFrameError | null {
  try {
    action();
    return null;
  } catch (error) {
    return error as StompFrameError;
  }
}

describe('parser: header limits', () => {
  it(`accepts ${MAX_STOMP_HEADERS} headers`, () => {
    const { frames } = createStompParser({ maxFrameBytes: MAX_FRAME }).push(`SEND\n${headerLines(MAX_STOMP_HEADERS)}\n\0`);
    expect(Object.keys(frames[0]!.headers)).toHaveLength(MAX_STOMP_HEADERS);
  });

  it(`refuses header ${MAX_STOMP_HEADERS + 1} the moment its line ends, before the rest of the frame arrives`, () => {
    const parser = createStompParser({ maxFrameBytes: MAX_FRAME });
    parser.push(`SEND\n${headerLines(MAX_STOMP_HEADERS)}`);
    const error = errorOf(() => parser.push('one:more\n'));
    expect([error?.code, error?.message]).toEqual(['WS102', `SEND frame has more than ${MAX_STOMP_HEADERS} headers`]);
  });

  it('counts repeated names too (only the first one is kept, but each one is a line to read)', () => {
    const error = errorOf(() => createStompParser({ maxFrameBytes: MAX_FRAME }).push(`SEND\n${'same:v\n'.repeat(5000)}\n\0`));
    expect(error?.message).toBe(`SEND frame has more than ${MAX_STOMP_HEADERS} headers`);
  });

  it(`accepts a header line of ${MAX_STOMP_HEADER_LINE_BYTES} bytes (a CRLF ending included)`, () => {
    const value = 'v'.repeat(MAX_STOMP_HEADER_LINE_BYTES - 'name:'.length);
    for (const eol of ['\n', '\r\n']) {
      const { frames } = createStompParser({ maxFrameBytes: MAX_FRAME }).push(`SEND\nname:${value}${eol}\n\0`);
      expect(frames[0]!.headers.name).toBe(value);
    }
  });

  it('refuses a longer header line as soon as its bytes pass the limit, without waiting for its end', () => {
    const parser = createStompParser({ maxFrameBytes: MAX_FRAME });
    parser.push('SEND\nname:');
    let fed = 0;
    const error = errorOf(() => {
      for (;;) {
        parser.push('v'.repeat(100));
        fed += 100;
        if (fed > MAX_FRAME) throw new Error('the parser kept reading the line');
      }
    });
    expect(error?.message).toBe(`a header line exceeds ${MAX_STOMP_HEADER_LINE_BYTES} bytes`);
    expect(fed).toBeLessThanOrEqual(MAX_STOMP_HEADER_LINE_BYTES + 100);
  });

  it('applies the same limit to the command line', () => {
    expect(errorOf(() => createStompParser({ maxFrameBytes: MAX_FRAME }).push('S'.repeat(MAX_STOMP_HEADER_LINE_BYTES + 2)))?.message).toBe(
      `a command line exceeds ${MAX_STOMP_HEADER_LINE_BYTES} bytes`,
    );
  });
});

describe('server: frames over the header limits', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.stop());

  async function sendRaw(frame: string): Promise<{ received: string; code: number }> {
    const socket = new WebSocket(wsUrl(s.url), ['v12.stomp']);
    let received = '';
    socket.on('message', (data) => (received += webSocketText(data)));
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await new Promise((resolve) => socket.on('open', resolve));
    socket.send(frame);
    return { code: await closed, received };
  }

  it.each([
    ['thousands of headers', `CONNECT\naccept-version:1.2\n${headerLines(5000)}\n\0`],
    ['a 60 KiB header value', `CONNECT\naccept-version:1.2\nhost:${'h'.repeat(60 * 1024)}\n\n\0`],
  ])('answers a CONNECT with %s with ERROR WS102 and closes', async (_name, frame) => {
    const { received, code } = await sendRaw(frame);
    expect(received).toMatch(/^ERROR\n[^\0]*error-code:WS102/);
    expect(code).toBe(1002);
  });
});
