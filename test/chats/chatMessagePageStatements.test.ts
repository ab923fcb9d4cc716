// A chat history page's statements (src/chats/chatMessagePageStatements.ts), one contract for both
// implementations: each engine's port carries its own (.sqlite.ts, .postgres.ts).
import { expect, it } from 'vitest';
import type { ChatPageQuery } from '../../src/chats/chatMessagePageStatements.js';
import { describeOnBothEngines } from '../support/bothEngines.js';
import { addMember, addMessage, addPlan, T0 } from '../support/sqlFixtures.js';

describeOnBothEngines('chat message page statements', (port) => {
  const page = (query: ChatPageQuery) => port().run((q) => port().statements.chatMessagePage.page(q, query));

  async function roomWithMessages(email: string, count: number) {
    const memberId = await addMember(port(), email);
    const { chatRoomId } = await addPlan(port(), memberId);
    const ids: number[] = [];
    for (let n = 1; n <= count; n++) ids.push(await addMessage(port(), chatRoomId, `message ${n}`, T0 + n));
    return { memberId, chatRoomId, ids };
  }

  it('gives the newest messages first, at most `limit`, and the older ones before a cursor', async () => {
    const { memberId, chatRoomId, ids } = await roomWithMessages('chatter@example.com', 5);
    const first = await page({ memberId, chatRoomId, limit: 3, beforeId: null });
    expect(first).toEqual([5, 4, 3].map((n) => ({ id: ids[n - 1], messageType: 'USER', content: `message ${n}`, contentType: 'TEXT', createdAt: T0 + n })));
    expect((await page({ memberId, chatRoomId, limit: 3, beforeId: ids[2]! })).map((m) => m.id)).toEqual([ids[1], ids[0]]);
    expect(await page({ memberId, chatRoomId, limit: 3, beforeId: ids[0]! })).toEqual([]);
  });

  it("gives no rows for another member's room, or a cursor that is not a message of the room", async () => {
    const mine = await roomWithMessages('mine@example.com', 2);
    const theirs = await roomWithMessages('theirs@example.com', 2);
    expect(await page({ memberId: mine.memberId, chatRoomId: theirs.chatRoomId, limit: 10, beforeId: null })).toEqual([]);
    expect(await page({ memberId: mine.memberId, chatRoomId: mine.chatRoomId, limit: 10, beforeId: theirs.ids[1]! })).toEqual([]);
    expect(await page({ memberId: mine.memberId, chatRoomId: mine.chatRoomId, limit: 10, beforeId: 999_999 })).toEqual([]);
  });
});
