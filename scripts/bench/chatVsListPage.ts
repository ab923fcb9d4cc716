// Chat history page vs trip list page, in process at the repository level (what each handler asks
// the database for a page after a cursor): listChatMessages' page (its room and cursor checks are
// in the same statement) against listTripPlans' cursor lookup and page, same page size, same number of rows (one member's
// plans, one room's messages), on a SQLite file opened as production opens it (no reentry guard).
// The two run interleaved in small batches, so other work on the machine weighs on both alike.
import path from 'node:path';
import { ownChatPageRows } from '../../src/chats/chatMessagePage.js';
import { openDatabase } from '../../src/db/database.js';
import { databasePort, sqlitePort, type DatabasePort } from '../../src/db/databasePort.js';
import { findOwnListCursor, listOwnTripPlans } from '../../src/trips/tripPlanRepository.js';
import { cursorAt, pageSize } from './keysetFlatness.js';
import { insertMembers, insertTripPlans } from './seedTrips.js';

export interface PageCosts {
  rows: number;
  pageSize: number;
  /** mean µs per page over every iteration */
  listUs: number;
  chatUs: number;
}

const sort = { field: 'createdAt', direction: 'desc' } as const;
const content = 'Day 1 in Busan: Haeundae beach in the morning, lunch at the fish market, Gamcheon culture village in the afternoon. '.repeat(2);

function timed(fn: () => Promise<void>): Promise<number> {
  const start = process.hrtime.bigint();
  return fn().then(() => Number(process.hrtime.bigint() - start) / 1000);
}

export async function measureChatVsListPage(dir: string, rows: number, iterations: number): Promise<PageCosts> {
  const database = openDatabase(path.join(dir, 'chat-vs-list.sqlite'));
  try {
    const now = Date.now();
    const [memberId] = insertMembers(database.sqlite, 1, now, 'pages') as [number];
    insertTripPlans(database.sqlite, [{ memberId, count: rows }], now);
    const roomId = (database.sqlite.prepare('SELECT id FROM chat_room WHERE member_id = ? ORDER BY id LIMIT 1').get(memberId) as { id: number }).id;
    const insert = database.sqlite.prepare(
      "INSERT INTO chat_message (chat_room_id, message_type, content, content_type, created_at) VALUES (?, ?, ?, 'TEXT', ?)",
    );
    database.sqlite.transaction(() => {
      for (let i = 0; i < rows; i++) insert.run(roomId, i % 2 === 0 ? 'USER' : 'ASSISTANT', content, now + i);
    })();
    database.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const port: DatabasePort = databasePort(sqlitePort(database, { guardReentry: false }));

    // A page in the middle of each: the cursor is the id of the item before it.
    const planCursor = cursorAt(database, memberId, sort, Math.floor(rows / 2));
    const messageCursor = (
      database.sqlite.prepare('SELECT id FROM chat_message WHERE chat_room_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?').get(roomId, Math.floor(rows / 2)) as {
        id: number;
      }
    ).id;
    const listPage = async () => {
      const cursor = (await findOwnListCursor(port, memberId, planCursor)) ?? null;
      if ((await listOwnTripPlans(port, memberId, sort, pageSize, cursor)).length !== pageSize + 1) throw new Error('short list page');
    };
    const chatPage = async () => {
      // What listChatMessages asks for a page: one statement with the room and cursor checks folded in.
      if ((await ownChatPageRows(port, memberId, roomId, pageSize, messageCursor)).length !== pageSize + 1) throw new Error('short chat page');
    };
    for (let i = 0; i < 50; i++) {
      await listPage();
      await chatPage();
    }
    let listUs = 0;
    let chatUs = 0;
    const batch = 20;
    for (let done = 0; done < iterations; done += batch) {
      for (let i = 0; i < batch; i++) listUs += await timed(listPage);
      for (let i = 0; i < batch; i++) chatUs += await timed(chatPage);
    }
    const n = Math.ceil(iterations / batch) * batch;
    return { rows, pageSize, listUs: listUs / n, chatUs: chatUs / n };
  } finally {
    database.close();
  }
}
