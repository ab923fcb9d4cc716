// An ERROR frame names what the client sent in at most 300 characters (cut with the marker
// `...[truncated]`), like HTTP error messages: a long destination is not sent back whole, twice.
// Messages on the errors channel are ErrorResponses with the same limits as HTTP error bodies.
import { jsonAt, jsonText } from '../../conformance/specModel/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRUNCATION_MARKER } from '../../src/kernel/errorBodyLimits.js';
import { busanTrip } from '../support/testApp.js';
import { connectStomp, wsUrl } from '../support/stompTestClient.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { bodyOf } from '../support/responseBody.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.stop());

describe('STOMP ERROR frames', () => {
  it('cut the message naming a 7 KiB destination to 300 characters', async () => {
    const { accessToken } = await s.signIn('long-destination@example.com');
    const c = await connectStomp(wsUrl(s.url), accessToken);
    const destination = `/user/sub/${'d'.repeat(7 * 1024)}`;
    await expect(c.subscribe(destination)).rejects.toThrow();
    const error = c.errors[0]!;
    expect(error.headers['error-code']).toBe('WS004');
    expect(error.headers.message).toHaveLength(300);
    expect(error.headers.message!.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(error.body.length).toBeLessThanOrEqual(300);
  });

  it('send an errors-channel message whose path names a long destination cut to 256 characters', async () => {
    const { accessToken } = await s.signIn('long-send@example.com');
    const plan = bodyOf(await s.request('POST', '/api/v1/trips', { token: accessToken, body: busanTrip }), 'createTripPlanSession', 201).data;
    const c = await connectStomp(wsUrl(s.url), accessToken);
    await c.subscribe(`/user/sub/errors/${plan.chatRoomId}`);
    await c.send(`/pub/chat/${plan.chatRoomId}/${'t'.repeat(7 * 1024)}`, JSON.stringify({ content: 'hi' }));
    const error = await c.waitFor((m) => jsonAt(m.body, 'code') === 'WS005');
    const echoed = jsonText(jsonAt(error.body, 'path'));
    expect(echoed).toHaveLength(256);
    expect(echoed.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(jsonText(jsonAt(error.body, 'message')).length).toBeLessThanOrEqual(300);
    await c.disconnect();
  });
});
