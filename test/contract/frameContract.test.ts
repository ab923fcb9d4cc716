// The frame check of the STOMP contract tests (test/support/documentedFrames.ts) itself: it must
// fail a frame the spec does not document exactly, or the replay in asyncContract.test.ts proves
// nothing about headers.
import { describe, expect, it } from 'vitest';
import { frameProblems, type ObservedFrame } from '../support/documentedFrames.js';

const connected: ObservedFrame = {
  command: 'CONNECTED',
  headers: { version: '1.2', 'heart-beat': '10000,10000', 'user-name': '7', server: 'trip-itinerary/2.0' },
  body: '',
};
const body = JSON.stringify({ message: 'Hi', isComplete: true, timestamp: '2026-11-22T09:30:07Z', messageStreamType: 'CHAT' });
const message: ObservedFrame = {
  command: 'MESSAGE',
  headers: {
    destination: '/user/sub/chat/42',
    'content-type': 'application/json',
    subscription: 'sub-1',
    'message-id': 'a-1',
    'content-length': String(body.length),
    'x-epoch': 'k3v9q2',
    'x-offset': '7',
  },
  body,
};
const error: ObservedFrame = {
  command: 'ERROR',
  headers: { 'error-code': 'WS001', message: 'Authentication failed.', 'content-type': 'text/plain', 'content-length': '22' },
  body: 'Authentication failed.',
};

describe('the documented-frame check', () => {
  it('passes frames exactly as asyncapi.yaml documents them', () => {
    const receiptHeaders: Record<string, string>[] = [{ 'receipt-id': 'r-1' }, { 'receipt-id': 'r-1', 'x-recovered': 'false' }];
    const receipts = receiptHeaders.map((headers): ObservedFrame => ({ command: 'RECEIPT', headers, body: '' }));
    for (const frame of [connected, message, error, ...receipts]) expect(frameProblems(frame)).toEqual([]);
  });

  it('fails a header the spec does not declare', () => {
    expect(frameProblems({ ...connected, headers: { ...connected.headers, session: 'x' } })).toEqual([
      expect.stringContaining('must NOT have additional properties (session)'),
    ]);
  });

  it('fails a missing required header, a body where the message has no payload, and a body that breaks the payload schema', () => {
    const { 'content-length': _dropped, ...withoutLength } = message.headers;
    expect(frameProblems({ ...message, headers: withoutLength }).join()).toContain("must have required property 'content-length'");
    expect(frameProblems({ command: 'RECEIPT', headers: { 'receipt-id': 'r-1' }, body: 'done' })).toEqual([expect.stringContaining('has a body')]);
    expect(frameProblems({ ...message, body: JSON.stringify({ message: 'Hi' }) }).join()).toContain('body');
    expect(frameProblems({ ...message, headers: { ...message.headers, 'x-offset': '0' } }).join()).toContain('x-offset');
    expect(frameProblems({ ...message, headers: { ...message.headers, 'x-epoch': 'a:b' } }).join()).toContain('x-epoch');
  });

  it('fails an ERROR whose error-code is a code of the list that no ERROR frame carries, or no code at all', () => {
    expect(frameProblems({ ...error, headers: { ...error.headers, 'error-code': 'TRIP101' } }).join()).toContain('error-code');
    expect(frameProblems({ ...error, headers: { ...error.headers, 'error-code': 'WS999' } }).join()).toContain('error-code');
  });

  it('fails a frame no message documents, and a MESSAGE to a destination no channel has', () => {
    expect(frameProblems({ command: 'BEGIN', headers: {}, body: '' })).toEqual([expect.stringContaining('0 messages')]);
    expect(frameProblems({ ...message, headers: { ...message.headers, destination: '/topic/everything' } })).toEqual([expect.stringContaining('no channel')]);
  });
});
