// When an auth session ends (logout, or a replayed refresh token that revokes it) its STOMP
// connections end at once with ERROR WS002 (asyncapi.yaml, server `stomp`, Session end), not at the
// next periodic check: here that check runs once an hour, so only the immediate close can explain
// a closed connection. Other sessions of the same member stay open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { busanTrip } from '../support/testApp.js';
import { openRawStomp } from '../support/rawStompSocket.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { bodyOf, errorCodeOf } from '../support/responseBody.js';

const sendFrame = (chatRoomId: number, receipt: string) =>
  `SEND\ndestination:/pub/chat/${chatRoomId}/message\nreceipt:${receipt}\ncontent-type:application/json\n\n{"content":"still there?"}\0`;

describe('a session that ends closes its STOMP connections at once', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ STOMP_SESSION_CHECK_MS: String(3_600_000) });
  });
  afterAll(() => s.stop());

  it('logout: every connection of the session gets ERROR WS002 and a SEND after it is not accepted; another session stays', async () => {
    const leaving = await s.signIn('leaving@example.com');
    const staying = await s.signIn('leaving@example.com');
    const { chatRoomId } = bodyOf(await s.request('POST', '/api/v1/trips', { token: leaving.accessToken, body: busanTrip }), 'createTripPlanSession', 201).data;
    const tab1 = await openRawStomp(s.url, leaving.accessToken);
    const tab2 = await openRawStomp(s.url, leaving.accessToken);
    const otherSession = await openRawStomp(s.url, staying.accessToken);

    expect((await s.request('POST', '/api/v1/auth/logout', { token: leaving.accessToken })).status).toBe(204);
    tab1.send(sendFrame(chatRoomId, 'after-logout'));
    expect(await tab1.receiptOrClose('after-logout')).toBe('closed');
    for (const tab of [tab1, tab2]) {
      await tab.closed;
      expect(tab.errorCode()).toBe('WS002');
      expect(tab.frames.find((f) => f.command === 'ERROR')?.headers.message).toMatch(/logged out/);
    }

    otherSession.send(sendFrame(chatRoomId, 'other-session'));
    expect(await otherSession.receiptOrClose('other-session')).toBe('RECEIPT');
    expect(otherSession.errorCode()).toBeUndefined();
    otherSession.close();
  });

  it('a replayed refresh token revokes the session: its connections get ERROR WS002 at once', async () => {
    const first = await s.signIn('replayed@example.com');
    const rotated = bodyOf(await s.request('POST', '/api/v1/auth/reissue', { body: { refreshToken: first.refreshToken } }), 'reissueToken', 200).data;
    const { chatRoomId } = bodyOf(await s.request('POST', '/api/v1/trips', { token: rotated.accessToken, body: busanTrip }), 'createTripPlanSession', 201).data;
    const connection = await openRawStomp(s.url, rotated.accessToken);
    expect(connection.frames[0]?.command).toBe('CONNECTED');

    s.advance(10_001); // past the reuse grace (two tabs reissuing at once)
    const replay = await s.request('POST', '/api/v1/auth/reissue', { body: { refreshToken: first.refreshToken } });
    expect([replay.status, errorCodeOf(replay)]).toEqual([401, 'AUTH004']);
    connection.send(sendFrame(chatRoomId, 'after-revocation'));
    expect(await connection.receiptOrClose('after-revocation')).toBe('closed');
    expect(connection.errorCode()).toBe('WS002');
    expect(connection.frames.find((f) => f.command === 'ERROR')?.headers.message).toMatch(/revoked/);
  });

  it('a connection of a session already logged out is refused at CONNECT', async () => {
    const gone = await s.signIn('gone@example.com');
    await s.request('POST', '/api/v1/auth/logout', { token: gone.accessToken });
    const late = await openRawStomp(s.url, gone.accessToken);
    expect(late.errorCode()).toBe('WS001');
  });
});
