// The database work of one chat history page (listChatMessages) next to that of one trip list page
// (listTripPlans), in-process at the repository level, for `npm run bench -- chatpage` and
// `npm run bench -- summary`. Each page is what its handler asks the database: the trip list's cursor lookup
// and page; the chat page's one statement (chats/chatMessagePage.ts); and, as the baseline in the
// same run, the three drizzle queries the chat handler made before (room check, cursor check,
// page). Page size 20, a cursor in the middle of `rows` messages and `rows` plans of one member. The
// variants take turns in rounds, so the machine's load falls on all alike; CPU time per page
// (process.cpuUsage, and on PostgreSQL its backends' from /proc) next to wall time.
import { and, desc, eq, lt } from 'drizzle-orm';
import { ownChatPageRows, findChatMessage, findOwnChatRoom, type DatabasePort, findOwnListCursor, listOwnTripPlans } from '../../src/index.js';
import { cpuSeconds } from './processCpu.js';

export const PAGE = 20;
export const tripListPage = 'trip list page (cursor lookup + page)';
export const chatPage = 'chat page (one prepared statement)';
export const chatPageBefore = 'chat page before (three drizzle queries)';

interface Seeded {
  memberId: number;
  chatRoomId: number;
  /** a plan id and a message id in the middle of their lists: the cursors of the pages measured */
  planCursor: number;
  messageCursor: number;
}

/** `count` rows inserted 500 at a time (one statement each); their ids in order. */
async function insertInBatches(count: number, insert: (start: number, length: number) => Promise<{ id: number }[]>): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < count; start += 500) ids.push(...(await insert(start, Math.min(500, count - start))).map((r) => r.id));
  return ids;
}

async function seed(port: DatabasePort, count: number): Promise<Seeded> {
  const { members, tripPlans, chatRooms, chatMessages } = port.t;
  const now = Date.now();
  const [member] = await port.run((q) =>
    q.insert(members).values({ email: 'pages@example.com', name: 'Pages', provider: 'bench', createdAt: now, updatedAt: now }).returning({ id: members.id }),
  );
  const memberId = member!.id;
  const planIds = await insertInBatches(count, async (start, length) => {
    const rows = await port.run((q) =>
      q
        .insert(tripPlans)
        .values(
          Array.from({ length }, (_, i) => ({
            memberId,
            title: `Busan, 3 days #${start + i}`,
            region: 'Busan',
            startDate: '2026-12-24',
            endDate: '2026-12-26',
            duration: 3,
            peopleCount: 2,
            themes: ['FAMOUS_SPOT'],
            transportation: 'PUBLIC_TRANSIT',
            generationStatus: 'COMPLETED',
            createdAt: now - (start + i) * 60_000,
            updatedAt: now,
          })),
        )
        .returning({ id: tripPlans.id }),
    );
    await port.run((q) => q.insert(chatRooms).values(rows.map((r) => ({ memberId, tripPlanId: r.id, createdAt: now }))));
    return rows;
  });
  const [room] = await port.run((q) => q.select({ id: chatRooms.id }).from(chatRooms).where(eq(chatRooms.tripPlanId, planIds[0]!)).execute());
  const chatRoomId = room!.id;
  // A generated day's summary is a few hundred characters.
  const content = 'Day 2 in Busan: Haeundae Beach in the morning, lunch at a market, Gamcheon Culture Village after. '.repeat(3);
  const messageIds = await insertInBatches(count, (start, length) =>
    port.run((q) =>
      q
        .insert(chatMessages)
        .values(
          Array.from({ length }, (_, i) => ({
            chatRoomId,
            messageType: i % 2 ? ('ASSISTANT' as const) : ('USER' as const),
            content,
            createdAt: now + start + i,
          })),
        )
        .returning({ id: chatMessages.id }),
    ),
  );
  // Plans were created newest first, so planIds is also the list's default order (createdAt:desc).
  return { memberId, chatRoomId, planCursor: planIds[Math.floor(count / 2)]!, messageCursor: messageIds[Math.floor(count / 2)]! };
}

/** The chat page as the handler read it before the performance work: three drizzle builder queries. */
async function drizzleChatPage(port: DatabasePort, memberId: number, chatRoomId: number, beforeId: number): Promise<number> {
  const room = await findOwnChatRoom(port, memberId, chatRoomId);
  if (!room || !(await findChatMessage(port, room.id, beforeId))) throw new Error('seeded room or cursor missing');
  const { chatMessages } = port.t;
  const rows = await port.run((q) =>
    q
      .select()
      .from(chatMessages)
      .where(and(eq(chatMessages.chatRoomId, room.id), lt(chatMessages.id, beforeId)))
      .orderBy(desc(chatMessages.id))
      .limit(PAGE + 1)
      .execute(),
  );
  return rows.length;
}

type Variant = { name: string; page: () => Promise<number> };

function variants(port: DatabasePort, s: Seeded): Variant[] {
  return [
    {
      name: tripListPage,
      page: async () => {
        const cursor = await findOwnListCursor(port, s.memberId, s.planCursor);
        return (await listOwnTripPlans(port, s.memberId, { field: 'createdAt', direction: 'desc' }, PAGE, cursor!)).length;
      },
    },
    { name: chatPage, page: async () => (await ownChatPageRows(port, s.memberId, s.chatRoomId, PAGE, s.messageCursor)).length },
    { name: chatPageBefore, page: () => drizzleChatPage(port, s.memberId, s.chatRoomId, s.messageCursor) },
  ];
}

export interface Measured {
  wallUs: number;
  cpuUs: number;
  /** PostgreSQL: its backends' CPU time (null on SQLite, or where /proc cannot tell) */
  serverCpuUs: number | null;
  pages: number;
}

/** The CPU seconds the PostgreSQL backends of this database have used so far, or null. */
async function serverCpu(port: DatabasePort): Promise<() => number | null> {
  if (port.engine.dialect !== 'postgres') return () => null;
  const { rows } = await port.engine.db.$client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()');
  return () => {
    let sum = 0;
    for (const { pid } of rows) {
      const seconds = cpuSeconds(pid);
      if (seconds === null) return null;
      sum += seconds;
    }
    return sum;
  };
}

/** Seeds `rows` plans and `rows` messages of one member, then times each variant in turns: `rounds` rounds of `perRound` pages. */
export async function measureChatPages(port: DatabasePort, opts: { rows: number; rounds: number; perRound: number }): Promise<Map<string, Measured>> {
  const { rounds } = opts;
  const s = await seed(port, opts.rows);
  const all = variants(port, s);
  const totals = new Map<string, Measured>(all.map((v) => [v.name, { wallUs: 0, cpuUs: 0, serverCpuUs: 0, pages: 0 }]));
  for (const v of all) {
    // Warm-up: statements prepared, JIT settled.
    for (let i = 0; i < 100; i++) if ((await v.page()) !== PAGE + 1) throw new Error(`${v.name}: not a full page`);
  }
  const server = await serverCpu(port);
  for (let round = 0; round < rounds; round++) {
    for (const v of all) {
      const serverAtStart = server();
      const cpu = process.cpuUsage();
      const start = process.hrtime.bigint();
      for (let i = 0; i < opts.perRound; i++) await v.page();
      const wall = Number(process.hrtime.bigint() - start) / 1000;
      const used = process.cpuUsage(cpu);
      const serverAtEnd = server();
      const total = totals.get(v.name)!;
      total.wallUs += wall;
      total.cpuUs += used.user + used.system;
      total.serverCpuUs =
        total.serverCpuUs === null || serverAtStart === null || serverAtEnd === null ? null : total.serverCpuUs + (serverAtEnd - serverAtStart) * 1e6;
      total.pages += opts.perRound;
    }
  }
  return totals;
}

/** CPU µs per page: this process's and, on PostgreSQL, its backends'. */
export const cpuPerPage = (m: Measured) => (m.cpuUs + (m.serverCpuUs ?? 0)) / m.pages;
