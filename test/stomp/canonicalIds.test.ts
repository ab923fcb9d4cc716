// Ids in STOMP destinations are canonical decimal integers in the range of `Id` (asyncapi.yaml,
// parameters ChatRoomId and TripPlanId, `x-pattern`): `03`, `+3`, `3.0`, `0x3`, ` 3` name nothing.
// SUBSCRIBE to such a destination is ERROR WS004, SEND is ERROR WS005, even when the number is an
// id the member owns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchChannel } from '../../generated/asyncapi.js';
import { busanTrip } from '../support/testApp.js';
import { openRawStomp } from '../support/rawStompSocket.js';
import { bodyOf } from '../support/responseBody.js';
import { startTestServer, type TestServer } from '../support/testServer.js';

/** Texts that JavaScript's Number() reads as `id` but that are not its canonical form. */
const spellingsOf = (id: number) => [`0${id}`, `+${id}`, `${id}.0`, `0x${id.toString(16)}`, ` ${id}`, `${id} `, `${id}e0`, `%3${id}`, `0b${id.toString(2)}`];

describe('canonical ids in STOMP destinations', () => {
  let s: TestServer;
  let token: string;
  let plan: { tripPlanId: number; chatRoomId: number };

  beforeAll(async () => {
    s = await startTestServer();
    token = (await s.signIn('ids@example.com')).accessToken;
    plan = bodyOf(await s.request('POST', '/api/v1/trips', { token, body: busanTrip }), 'createTripPlanSession', 201).data;
    expect(plan.tripPlanId).toBeLessThan(10); // so that %3N is the percent-encoding of the id
  });
  afterAll(() => s.stop());

  it('matchChannel (generated from the x-pattern) matches canonical ids only', () => {
    expect(matchChannel('/user/sub/schedule/42')).toEqual({ name: 'scheduleUpdates', parameters: { tripPlanId: '42' } });
    expect(matchChannel('/pub/chat/9007199254740991/message')?.name).toBe('chatMessages');
    for (const text of [...spellingsOf(3), '0', '-3', '', '12345678901234567']) {
      expect(matchChannel(`/user/sub/schedule/${text}`), text).toBeNull();
      expect(matchChannel(`/pub/chat/${text}/message`), text).toBeNull();
    }
  });

  it('SUBSCRIBE with a non-canonical spelling of an own id is ERROR WS004', async () => {
    for (const destination of [
      ...spellingsOf(plan.tripPlanId).map((id) => `/user/sub/schedule/${id}`),
      ...spellingsOf(plan.chatRoomId).map((id) => `/user/sub/chat/${id}`),
      ...spellingsOf(plan.chatRoomId).map((id) => `/user/sub/errors/${id}`),
      '/user/sub/schedule/9007199254740992',
    ]) {
      const socket = await openRawStomp(s.url, token);
      socket.subscribe('s', destination, 'r');
      expect(await socket.receiptOrClose('r'), destination).toBe('closed');
      expect(await socket.closed, destination).toBe(1008);
      expect(socket.errorCode(), destination).toBe('WS004');
      expect(
        socket.frames.some((f) => f.command === 'RECEIPT'),
        destination,
      ).toBe(false);
    }
    expect(s.app.broker.size()).toBe(0);
  });

  it('SEND with a non-canonical spelling of an own room id is ERROR WS005 and stores nothing', async () => {
    for (const id of spellingsOf(plan.chatRoomId)) {
      for (const destination of [`/pub/chat/${id}/message`, `/pub/chat/${id}/typing`]) {
        const socket = await openRawStomp(s.url, token);
        socket.send(`SEND\ndestination:${destination}\nreceipt:r\ncontent-type:application/json\n\n{"content":"hello"}\0`);
        expect(await socket.receiptOrClose('r'), destination).toBe('closed');
        expect(await socket.closed, destination).toBe(1008);
        expect(socket.errorCode(), destination).toBe('WS005');
        expect(
          socket.frames.some((f) => f.command === 'RECEIPT'),
          destination,
        ).toBe(false);
      }
    }
    const history = await s.request('GET', `/api/v1/chats/${plan.chatRoomId}/messages`, { token });
    expect(bodyOf(history, 'listChatMessages', 200).data.content).toEqual([]);
  });

  it('the canonical id itself works', async () => {
    const socket = await openRawStomp(s.url, token);
    socket.subscribe('s', `/user/sub/schedule/${plan.tripPlanId}`, 'r1');
    socket.send(`SEND\ndestination:/pub/chat/${plan.chatRoomId}/message\nreceipt:r2\ncontent-type:application/json\n\n{"content":"hello"}\0`);
    await socket.waitFor((f) => f.headers['receipt-id'] === 'r2');
    expect(socket.errorCode()).toBeUndefined();
    socket.close();
  });
});
