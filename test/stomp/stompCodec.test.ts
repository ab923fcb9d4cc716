import { FrameImpl, Parser } from '@stomp/stompjs';
import type { IRawFrameType } from '@stomp/stompjs';
import { describe, expect, it } from 'vitest';
import { encodeFrame, encodeTextFrame, frameBodyText } from '../../src/stomp/stompFrame.js';
import type { StompFrame } from '../../src/stomp/stompFrame.js';
import { createStompParser, StompFrameError } from '../../src/stomp/stompParser.js';
import type { StompParser } from '../../src/stomp/stompParser.js';

const MAX = 64 * 1024;
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const latin = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.byteLength;
  }
  return joined;
}

function feed(parser: StompParser, chunks: (string | Uint8Array)[]): { frames: StompFrame[]; heartbeats: number } {
  const frames: StompFrame[] = [];
  let heartbeats = 0;
  for (const chunk of chunks) {
    const result = parser.push(chunk);
    frames.push(...result.frames);
    heartbeats += result.heartbeats;
  }
  return { frames, heartbeats };
}

function parseOne(input: string | Uint8Array, escapeHeaders = true): StompFrame {
  const { frames } = feed(createStompParser({ maxFrameBytes: MAX, escapeHeaders }), [input]);
  expect(frames).toHaveLength(1);
  return frames[0]!;
}

function expectFrameError(action: () => unknown, message: RegExp): void {
  let thrown: unknown;
  try {
    action();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(StompFrameError);
  expect((thrown as StompFrameError).code).toBe('WS102');
  expect((thrown as StompFrameError).message).toMatch(message);
}

describe('encodeFrame', () => {
  it('writes LF line endings, the headers, a content-length for the body and a NUL', () => {
    const encoded = encodeFrame({ command: 'MESSAGE', headers: { destination: '/user/sub/chat/1', 'message-id': 'm-1' }, body: '{"a":1}' });
    expect(latin(encoded)).toBe('MESSAGE\ndestination:/user/sub/chat/1\nmessage-id:m-1\ncontent-length:7\n\n{"a":1}\0');
  });

  it('adds no content-length for an empty body and keeps one the caller set', () => {
    expect(latin(encodeFrame({ command: 'RECEIPT', headers: { 'receipt-id': 'r1' } }))).toBe('RECEIPT\nreceipt-id:r1\n\n\0');
    expect(latin(encodeFrame({ command: 'SEND', headers: { 'content-length': '2' }, body: 'hi' }))).toBe('SEND\ncontent-length:2\n\nhi\0');
  });

  it('refuses a caller content-length that disagrees with the body', () => {
    expect(() => encodeFrame({ command: 'SEND', headers: { 'content-length': '3' }, body: 'hi' })).toThrow(/content-length/);
  });

  it('escapes names and values with \\\\ \\c \\n \\r', () => {
    const encoded = encodeFrame({ command: 'MESSAGE', headers: { 'a:b\\c': 'x\ny\rz:\\' } });
    expect(latin(encoded)).toBe('MESSAGE\na\\cb\\\\c:x\\ny\\rz\\c\\\\\n\n\0');
  });

  it('does not escape CONNECT and CONNECTED headers', () => {
    expect(latin(encodeFrame({ command: 'CONNECT', headers: { Authorization: 'Bearer a:b\\c' } }))).toBe('CONNECT\nAuthorization:Bearer a:b\\c\n\n\0');
    expect(latin(encodeFrame({ command: 'CONNECTED', headers: { server: 'trip:1' } }))).toBe('CONNECTED\nserver:trip:1\n\n\0');
  });

  it('refuses headers that cannot be written unescaped rather than corrupting the frame', () => {
    expect(() => encodeFrame({ command: 'CONNECTED', headers: { server: 'a\nb' } })).toThrow(/unescaped/);
    expect(() => encodeFrame({ command: 'SEND', headers: { 'a:b': 'v' } }, { escapeHeaders: false })).toThrow(/unescaped/);
    expect(() => encodeFrame({ command: 'SEND', headers: { '': 'v' } })).toThrow(/empty/);
  });

  it('writes STOMP 1.0 style (no escaping) when asked', () => {
    expect(latin(encodeFrame({ command: 'MESSAGE', headers: { note: 'a:b\\n' } }, { escapeHeaders: false }))).toBe('MESSAGE\nnote:a:b\\n\n\n\0');
  });
});

describe('encode → parse round trip', () => {
  const roundTrip = (frame: Parameters<typeof encodeFrame>[0]): StompFrame => parseOne(encodeFrame(frame));

  it.each([
    ['colon', 'a:b'],
    ['backslash', 'a\\b'],
    ['line feed', 'a\nb'],
    ['carriage return', 'a\rb'],
    ['every escape at once, adjacent', ':\\\n\r\\n\\c\\\\'],
    ['only escapes', '\\'],
  ])('keeps a %s in header names and values', (_label, text) => {
    const parsed = roundTrip({ command: 'SEND', headers: { destination: '/pub/x', [`name${text}`]: `value${text}`, plain: text } });
    expect(parsed.headers).toEqual({ destination: '/pub/x', [`name${text}`]: `value${text}`, plain: text });
  });

  it('keeps a body with NUL bytes via content-length', () => {
    const body = new Uint8Array([1, 0, 2, 0, 0, 255]);
    const parsed = roundTrip({ command: 'SEND', headers: { destination: '/pub/x' }, body });
    expect(parsed.headers['content-length']).toBe('6');
    expect(parsed.body).toEqual(body);
  });

  it.each([
    ['Korean', '안녕하세요, 여행 일정을 만들어 주세요'],
    ['emoji', '🚀 👍🏽 👨‍👩‍👧‍👦'],
  ])('keeps a UTF-8 %s body and header', (_label, text) => {
    const parsed = roundTrip({ command: 'MESSAGE', headers: { subject: text }, body: text });
    expect(frameBodyText(parsed)).toBe(text);
    expect(parsed.headers.subject).toBe(text);
    expect(parsed.headers['content-length']).toBe(String(utf8(text).byteLength));
  });

  it('keeps an empty body', () => {
    const parsed = roundTrip({ command: 'DISCONNECT', headers: { receipt: '77' } });
    expect(parsed).toEqual({ command: 'DISCONNECT', headers: { receipt: '77' }, body: new Uint8Array(0) });
    expect(roundTrip({ command: 'SEND', body: '' }).body.byteLength).toBe(0);
  });

  it('round trips without escaping for STOMP 1.0 when both sides agree', () => {
    const encoded = encodeFrame({ command: 'SEND', headers: { note: 'a:b\\c' }, body: 'x' }, { escapeHeaders: false });
    expect(parseOne(encoded, false).headers.note).toBe('a:b\\c');
  });
});

describe('parser: headers', () => {
  it('keeps CONNECT and CONNECTED headers literal (no unescaping)', () => {
    const connect = parseOne('CONNECT\naccept-version:1.2\nAuthorization:Bearer a:b\npasscode:a\\nb\\t\n\n\0');
    expect(connect.headers).toEqual({ 'accept-version': '1.2', Authorization: 'Bearer a:b', passcode: 'a\\nb\\t' });
    expect(parseOne('CONNECTED\nserver:x\\cy\n\n\0').headers.server).toBe('x\\cy');
  });

  it('unescapes the same text in other frames', () => {
    expect(parseOne('SEND\npasscode:a\\nb\\c\\r\\\\\n\n\0').headers.passcode).toBe('a\nb:\r\\');
  });

  it('splits at the first colon, so an unescaped colon stays in the value', () => {
    expect(parseOne('CONNECT\nhost:a:b:c\n\n\0').headers.host).toBe('a:b:c');
  });

  it('keeps the first of repeated headers', () => {
    expect(parseOne('MESSAGE\nfoo:first\nfoo:second\ncontent-length:1\ncontent-length:5\n\nx\0').headers).toEqual({
      foo: 'first',
      'content-length': '1',
    });
  });

  it('does not trim spaces around names or values', () => {
    expect(parseOne('SEND\n key : value \n\n\0').headers).toEqual({ ' key ': ' value ' });
  });

  it('stores a __proto__ header as an ordinary own property', () => {
    const headers = parseOne('SEND\n__proto__:x\n\n\0').headers;
    expect(Object.hasOwn(headers, '__proto__')).toBe(true);
    expect(headers['__proto__']).toBe('x');
    expect(Object.getPrototypeOf(headers)).toBe(Object.prototype);
  });

  it('does not unescape with escaping off (STOMP 1.0) and honours setEscapeHeaders for later frames', () => {
    const parser = createStompParser({ maxFrameBytes: MAX, escapeHeaders: false });
    const [legacy] = parser.push('SEND\nnote:a\\cb\\t\n\n\0').frames;
    expect(legacy?.headers.note).toBe('a\\cb\\t');
    parser.setEscapeHeaders(true);
    const [modern] = parser.push('SEND\nnote:a\\cb\n\n\0').frames;
    expect(modern?.headers.note).toBe('a:b');
  });

  it('accepts CRLF line endings inside frames', () => {
    const frame = parseOne('SEND\r\ndestination:/pub/x\r\ncontent-length:2\r\n\r\nhi\0');
    expect(frame.command).toBe('SEND');
    expect(frame.headers).toEqual({ destination: '/pub/x', 'content-length': '2' });
    expect(frameBodyText(frame)).toBe('hi');
  });

  it('ends a body without content-length at the first NUL', () => {
    const { frames } = feed(createStompParser({ maxFrameBytes: MAX }), ['SEND\n\nab\0SEND\n\ncd\0']);
    expect(frames.map(frameBodyText)).toEqual(['ab', 'cd']);
  });
});

describe('parser: streaming', () => {
  // Two frames with a multibyte header and body, CRLF lines, an escape, a sized body with NULs
  // and heart-beats between and after them.
  const stream = concatBytes(
    utf8('\n'),
    utf8('SEND\r\ndestination:/pub/채팅\r\nid:x\\cy\r\n\r\n안녕 🚀\0'),
    utf8('\r\n'),
    encodeFrame({ command: 'SEND', headers: { destination: '/pub/bin', note: 'a\nb' }, body: new Uint8Array([0, 0xf0, 0x9f, 0, 10, 13]) }),
    utf8('\n\r\n'),
  );
  const expected = feed(createStompParser({ maxFrameBytes: MAX }), [stream]);

  it('parses the reference stream as two frames and four heart-beats', () => {
    expect(expected.heartbeats).toBe(4);
    expect(expected.frames).toHaveLength(2);
    expect(expected.frames[0]).toEqual({ command: 'SEND', headers: { destination: '/pub/채팅', id: 'x:y' }, body: utf8('안녕 🚀') });
    expect(expected.frames[1]?.headers).toEqual({ destination: '/pub/bin', note: 'a\nb', 'content-length': '6' });
    expect(expected.frames[1]?.body).toEqual(new Uint8Array([0, 0xf0, 0x9f, 0, 10, 13]));
  });

  it('gives the same result when split at every single byte position', () => {
    for (let split = 0; split <= stream.byteLength; split += 1) {
      const result = feed(createStompParser({ maxFrameBytes: MAX }), [stream.subarray(0, split), stream.subarray(split)]);
      expect(result, `split at ${split}`).toEqual(expected);
    }
  });

  it('gives the same result when split at every pair of positions', () => {
    for (let first = 0; first <= stream.byteLength; first += 1) {
      for (let second = first; second <= stream.byteLength; second += 1) {
        const result = feed(createStompParser({ maxFrameBytes: MAX }), [stream.subarray(0, first), stream.subarray(first, second), stream.subarray(second)]);
        if (!isDeepEqual(result, expected)) expect(result, `split at ${first} and ${second}`).toEqual(expected);
      }
    }
  });

  it('gives the same result fed one byte at a time, even if the caller reuses its buffer', () => {
    const parser = createStompParser({ maxFrameBytes: MAX });
    const scratch = new Uint8Array(1);
    const frames: StompFrame[] = [];
    let heartbeats = 0;
    for (const byte of stream) {
      scratch[0] = byte;
      const result = parser.push(scratch);
      frames.push(...result.frames);
      heartbeats += result.heartbeats;
    }
    expect({ frames, heartbeats }).toEqual(expected);
  });

  it('parses packed frames from one text message', () => {
    const text = '\n\r\nSEND\ndestination:/a\n\none\0SUBSCRIBE\nid:1\ndestination:/b\n\n\0UNSUBSCRIBE\nid:1\n\n\0\n\n';
    const result = feed(createStompParser({ maxFrameBytes: MAX }), [text]);
    expect(result.heartbeats).toBe(4);
    expect(result.frames.map((frame) => frame.command)).toEqual(['SEND', 'SUBSCRIBE', 'UNSUBSCRIBE']);
    expect(frameBodyText(result.frames[0]!)).toBe('one');
  });

  it('counts LF and CRLF heart-beats, even with CR and LF in different messages', () => {
    const parser = createStompParser({ maxFrameBytes: MAX });
    expect(parser.push('\n')).toEqual({ frames: [], heartbeats: 1 });
    expect(parser.push('\r\n\n')).toEqual({ frames: [], heartbeats: 2 });
    expect(parser.push('\r')).toEqual({ frames: [], heartbeats: 0 });
    expect(parser.push('\n')).toEqual({ frames: [], heartbeats: 1 });
  });

  it('accepts a frame of exactly maxFrameBytes and rejects one byte more', () => {
    const limit = 64;
    const frameOf = (size: number) => `SEND\n\n${'x'.repeat(size - 'SEND\n\n'.length - 1)}\0`;
    expect(feed(createStompParser({ maxFrameBytes: limit }), [frameOf(limit)]).frames).toHaveLength(1);
    expectFrameError(() => createStompParser({ maxFrameBytes: limit }).push(frameOf(limit + 1)), /exceeds 64 bytes/);

    const sized = (bodySize: number) => encodeFrame({ command: 'SEND', body: 'y'.repeat(bodySize) });
    const fittingBody = limit - (sized(10).byteLength - 10);
    expect(sized(fittingBody).byteLength).toBe(limit);
    expect(feed(createStompParser({ maxFrameBytes: limit }), [sized(fittingBody)]).frames).toHaveLength(1);
    expectFrameError(() => createStompParser({ maxFrameBytes: limit }).push(sized(fittingBody + 1)), /exceed/);
  });
});

describe('parser: errors', () => {
  const parse =
    (input: string | Uint8Array, maxFrameBytes = MAX) =>
    () =>
      createStompParser({ maxFrameBytes }).push(input);

  it('rejects an invalid escape sequence', () => {
    expectFrameError(parse('SEND\nnote:a\\tb\n\n\0'), /invalid header escape "\\\\t"/);
    expectFrameError(parse('SEND\nna\\tme:v\n\n\0'), /invalid header escape/);
    expectFrameError(parse('SEND\nnote:trailing\\\n\n\0'), /invalid header escape/);
  });

  it('rejects an unknown command', () => {
    expectFrameError(parse('SENDX\n\n\0'), /unknown command "SENDX"/);
    expectFrameError(parse('send\n\n\0'), /unknown command/);
    expectFrameError(parse('SEND \n\n\0'), /unknown command/);
  });

  it('rejects the command as soon as its line is complete', () => {
    expectFrameError(parse('HELLO\n'), /unknown command/);
  });

  it('rejects a header line without a colon, or with an empty name', () => {
    expectFrameError(parse('SEND\ndestination\n\n\0'), /without a colon/);
    expectFrameError(parse('SEND\n:value\n\n\0'), /empty name/);
  });

  it.each(['-1', 'abc', '', '1.5', ' 5', '+5', '0x10'])('rejects content-length %j', (value) => {
    expectFrameError(parse(`SEND\ncontent-length:${value}\n\n\0`), /invalid content-length/);
  });

  it('rejects a content-length over the limit before any body arrives', () => {
    expectFrameError(parse(`SEND\ncontent-length:${MAX}\n\n`), /content-length 65536 makes the frame exceed 65536 bytes/);
    expectFrameError(parse('SEND\ncontent-length:99999999999999999999999\n\n'), /exceed/);
  });

  it('rejects a frame growing past the limit without a NUL, without buffering much past the limit', () => {
    // A body runs into the frame limit; a header line into the (smaller) header line limit.
    for (const [head, limit] of [
      ['SEND\ndestination:/pub/x\n\n', /exceeds 65536 bytes/],
      ['SEND\nhuge-header:', /header line exceeds 8192 bytes/],
    ] as const) {
      const parser = createStompParser({ maxFrameBytes: MAX });
      parser.push(head);
      let fed = head.length;
      const chunk = 'z'.repeat(1000);
      expectFrameError(() => {
        for (;;) {
          parser.push(chunk);
          fed += chunk.length;
          if (fed > 10 * MAX) throw new Error('parser kept buffering');
        }
      }, limit);
      expect(fed).toBeLessThanOrEqual(MAX);
    }
  });

  it('rejects a body longer than its content-length (the byte after it is not NUL)', () => {
    expectFrameError(parse('SEND\ncontent-length:3\n\nabcd\0'), /more bytes than its content-length/);
    const parser = createStompParser({ maxFrameBytes: MAX });
    parser.push('SEND\ncontent-length:3\n\nab');
    expectFrameError(() => parser.push('cSEND\n\n\0'), /content-length/);
  });

  it('rejects a stray CR or NUL between frames', () => {
    expectFrameError(parse('\rSEND\n\n\0'), /CR not followed by LF/);
    expectFrameError(parse('SEND\n\n\0\0'), /NUL byte outside a frame/);
  });

  it('rejects header bytes that are not UTF-8', () => {
    expectFrameError(parse(concatBytes(utf8('SEND\nnote:'), new Uint8Array([0xc3, 0x28]), utf8('\n\n\0'))), /not valid UTF-8/);
  });

  it('keeps failing after an error: the stream position is lost', () => {
    const parser = createStompParser({ maxFrameBytes: MAX });
    expectFrameError(() => parser.push('BOGUS\n\n\0'), /unknown command/);
    expectFrameError(() => parser.push('SEND\n\n\0'), /unknown command/);
  });
});

describe('interop with @stomp/stompjs', () => {
  const awkward = 'a:b\nc\rd\\e'; // stompjs unescapes sequentially, so avoid "\" right before n/r/c.

  it('parses frames stompjs serialises (text and binary, escaped values, CONNECT literal)', () => {
    const connect = FrameImpl.marshall({
      command: 'CONNECT',
      headers: { 'accept-version': '1.2,1.1,1.0', 'heart-beat': '10000,10000', Authorization: 'Bearer x.y:z' },
      escapeHeaderValues: true,
    });
    const send = FrameImpl.marshall({ command: 'SEND', headers: { destination: '/pub/chat/1', note: awkward }, body: '안녕 🚀', escapeHeaderValues: true });
    const binary = FrameImpl.marshall({
      command: 'SEND',
      headers: { destination: '/pub/bin' },
      binaryBody: new Uint8Array([0, 1, 0, 2]),
      escapeHeaderValues: true,
    });
    expect(typeof send).toBe('string');
    expect(binary).toBeInstanceOf(ArrayBuffer);

    const parser = createStompParser({ maxFrameBytes: MAX });
    const toChunk = (wire: string | ArrayBuffer) => (typeof wire === 'string' ? wire : new Uint8Array(wire));
    const { frames, heartbeats } = feed(parser, [toChunk(connect), '\n', toChunk(send), toChunk(binary)]);
    expect(heartbeats).toBe(1);
    expect(frames.map((frame) => frame.command)).toEqual(['CONNECT', 'SEND', 'SEND']);
    expect(frames[0]?.headers).toEqual({ 'accept-version': '1.2,1.1,1.0', 'heart-beat': '10000,10000', Authorization: 'Bearer x.y:z' });
    expect(frames[1]?.headers).toEqual({ destination: '/pub/chat/1', note: awkward, 'content-length': String(utf8('안녕 🚀').byteLength) });
    expect(frameBodyText(frames[1]!)).toBe('안녕 🚀');
    expect(frames[2]?.body).toEqual(new Uint8Array([0, 1, 0, 2]));
  });

  it('is read by the stompjs Parser: escaped headers, binary body with content-length, heart-beats', () => {
    const received: FrameImpl[] = [];
    let pings = 0;
    const stompjsParser = new Parser(
      (raw: IRawFrameType) => received.push(FrameImpl.fromRawFrame(raw, true)),
      () => void (pings += 1),
    );
    const wire = concatBytes(
      encodeFrame({ command: 'CONNECTED', headers: { version: '1.2', 'heart-beat': '10000,10000', 'user-name': '42', server: 'trip:1' } }),
      utf8('\n'),
      encodeFrame({
        command: 'MESSAGE',
        headers: { destination: '/user/sub/chat/1', 'message-id': 'm-1', subscription: 'sub-0', note: awkward },
        body: '{"text":"안녕 🚀"}',
      }),
      utf8('\n'),
      encodeFrame({
        command: 'MESSAGE',
        headers: { destination: '/user/sub/bin', 'message-id': 'm-2', subscription: 'sub-0' },
        body: new Uint8Array([0, 255, 0, 10]),
      }),
      utf8('\n'),
      encodeFrame({ command: 'RECEIPT', headers: { 'receipt-id': 'r-1' } }),
    );
    // Split across two WebSocket messages to exercise stompjs's own buffering too.
    stompjsParser.parseChunk(wire.slice(0, 50).buffer);
    stompjsParser.parseChunk(wire.slice(50).buffer);

    expect(pings).toBe(3);
    expect(received.map((frame) => frame.command)).toEqual(['CONNECTED', 'MESSAGE', 'MESSAGE', 'RECEIPT']);
    expect(received[0]?.headers).toEqual({ version: '1.2', 'heart-beat': '10000,10000', 'user-name': '42', server: 'trip:1' });
    expect(received[1]?.headers.note).toBe(awkward);
    expect(received[1]?.body).toBe('{"text":"안녕 🚀"}');
    expect(received[2]?.headers['content-length']).toBe('4');
    expect(received[2]?.binaryBody).toEqual(new Uint8Array([0, 255, 0, 10]));
    expect(received[3]?.headers).toEqual({ 'receipt-id': 'r-1' });
  });
});

// Cheap pre-check so the pair-split loop only pays for expect() on a mismatch.
function isDeepEqual(actual: { frames: StompFrame[]; heartbeats: number }, wanted: { frames: StompFrame[]; heartbeats: number }): boolean {
  return JSON.stringify(serialisable(actual)) === JSON.stringify(serialisable(wanted));
}

function serialisable(result: { frames: StompFrame[]; heartbeats: number }): unknown {
  return { heartbeats: result.heartbeats, frames: result.frames.map((frame) => ({ ...frame, body: Array.from(frame.body) })) };
}

describe('encodeTextFrame', () => {
  it('is exactly the UTF-8 text of encodeFrame, content-length counted in bytes', () => {
    const frame = {
      command: 'MESSAGE' as const,
      headers: { destination: '/user/sub/chat/1', 'message-id': 'a:b\\c', subscription: 's-1' },
      body: '{"message":"부산 🌊"}',
    };
    const text = encodeTextFrame(frame);
    expect(text).toBe(new TextDecoder().decode(encodeFrame(frame)));
    expect(text).toContain(`content-length:${Buffer.byteLength(frame.body)}\n`);
    const [parsed] = createStompParser({ maxFrameBytes: 65536 }).push(text).frames;
    expect([parsed!.headers['message-id'], frameBodyText(parsed!)]).toEqual(['a:b\\c', frame.body]);
  });

  it('writes an empty body without content-length, like encodeFrame', () => {
    expect(encodeTextFrame({ command: 'RECEIPT', headers: { 'receipt-id': 'r1' } })).toBe('RECEIPT\nreceipt-id:r1\n\n\0');
  });
});
