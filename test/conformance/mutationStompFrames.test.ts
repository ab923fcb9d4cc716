// The STOMP frames of the mutating proxy: frames however they are split over WebSocket messages,
// heart-beats between them, sized bodies that hold NUL, escaped headers, and bytes that are not
// frames passed on as they came.
import { describe, expect, it } from 'vitest';
import { encodeStompFrame, headerOf, StompFrameReader, withHeader, withJsonBody, type StompChunk } from '../../conformance/mutation/stompFrames.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const kinds = (chunks: StompChunk[]) => chunks.map((c) => (c.kind === 'heartbeat' ? 'EOL' : c.frame.command));

describe('the proxy’s STOMP frame reader', () => {
  it('reads frames split anywhere and several in one message, and passes heart-beats (LF and CRLF) between them', () => {
    const wire = 'CONNECTED\nversion:1.2\n\n\0\n\r\nMESSAGE\ndestination:/user/sub/chat/1\nsubscription:sub-1\n\n{"a":1}\0\nRECEIPT\nreceipt-id:r-1\n\n\0';
    const reader = new StompFrameReader(1024);
    const chunks: StompChunk[] = [];
    // One byte at a time: every split point is tried.
    for (const byte of bytes(wire)) {
      const { chunks: done, unframed } = reader.push(Buffer.from([byte]));
      expect(unframed).toBeNull();
      chunks.push(...done);
    }
    expect(kinds(chunks)).toEqual(['CONNECTED', 'EOL', 'EOL', 'MESSAGE', 'EOL', 'RECEIPT']);
    expect(Buffer.concat(chunks.map((c) => c.raw)).toString()).toBe(wire);
    const message = chunks[3]!.kind === 'frame' ? chunks[3]!.frame : null;
    expect(message?.body.toString()).toBe('{"a":1}');
    expect(headerOf(message!, 'subscription')).toBe('sub-1');
  });

  it('reads a body of content-length bytes even when it holds NUL, and writes the length of a changed body', () => {
    const body = Buffer.from([0x61, 0x00, 0x62]);
    const wire = Buffer.concat([bytes('SEND\ndestination:/pub/chat/1/message\ncontent-length:3\n\n'), body, Buffer.from([0]), bytes('DISCONNECT\n\n\0')]);
    const { chunks } = new StompFrameReader(1024).push(wire);
    expect(kinds(chunks)).toEqual(['SEND', 'DISCONNECT']);
    const send = chunks[0]!.kind === 'frame' ? chunks[0]!.frame : null;
    expect(send?.body).toEqual(body);
    const rewritten = encodeStompFrame(withJsonBody(send!, { content: 'longer than three bytes' }));
    expect(rewritten.toString()).toBe('SEND\ndestination:/pub/chat/1/message\ncontent-length:37\n\n{"content":"longer than three bytes"}\0');
  });

  it('decodes escaped header values of STOMP 1.2 and escapes them again, but not those of CONNECT and CONNECTED', () => {
    const { chunks } = new StompFrameReader(1024).push(bytes('SUBSCRIBE\nid:sub-1\nx-since:k3v9q2\\c17\n\n\0CONNECT\nAuthorization:Bearer a:b\n\n\0'));
    const [subscribe, connect] = chunks.map((c) => (c.kind === 'frame' ? c.frame : null));
    expect(headerOf(subscribe!, 'x-since')).toBe('k3v9q2:17');
    expect(encodeStompFrame(withHeader(subscribe!, 'x-since', 'k3v9q2:16')).toString()).toBe('SUBSCRIBE\nid:sub-1\nx-since:k3v9q2\\c16\n\n\0');
    expect(headerOf(connect!, 'Authorization')).toBe('Bearer a:b');
    expect(encodeStompFrame(connect!).toString()).toBe('CONNECT\nAuthorization:Bearer a:b\n\n\0');
  });

  it('keeps STOMP 1.0 header values as they are once told the connection speaks 1.0', () => {
    const reader = new StompFrameReader(1024);
    reader.escaping = false;
    const { chunks } = reader.push(bytes('MESSAGE\nx-note:a\\cb\n\n\0'));
    expect(chunks[0]!.kind === 'frame' && headerOf(chunks[0]!.frame, 'x-note')).toBe('a\\cb');
  });

  it('passes on what it cannot frame as it came, and everything after it', () => {
    const reader = new StompFrameReader(1024);
    const first = reader.push(bytes('MESSAGE\ncontent-length:x\n\nbody\0'));
    expect(first.chunks).toEqual([]);
    expect(first.unframed?.toString()).toBe('MESSAGE\ncontent-length:x\n\nbody\0');
    expect(first.failure).toMatch(/content-length/);
    expect(reader.push(bytes('RECEIPT\nreceipt-id:r-1\n\n\0')).unframed?.toString()).toBe('RECEIPT\nreceipt-id:r-1\n\n\0');
  });

  it('holds no frame over its limit: the bytes go on unread', () => {
    const reader = new StompFrameReader(64);
    const { chunks, unframed } = reader.push(bytes(`MESSAGE\n\n${'x'.repeat(100)}`));
    expect(chunks).toEqual([]);
    expect(unframed?.length).toBe(109);
  });

  it('reads a garbage command as a frame, so the server still gets it to refuse', () => {
    const { chunks } = new StompFrameReader(1024).push(bytes('HELLO\nfoo:bar\n\nbody\0'));
    expect(kinds(chunks)).toEqual(['HELLO']);
  });
});
