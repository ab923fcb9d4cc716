// `npm run bench:chatpage`: the database work of one chat history page (listChatMessages) next to
// that of one trip list page (listTripPlans), in-process at the repository level like
// scripts/bench/keysetFlatness.ts, on SQLite and on PostgreSQL (BENCH_POSTGRES_URL, default the local
// test server; skipped when it does not answer). Each page is what its handler asks the database:
// the trip list's cursor lookup and page; the chat page's one statement (chats/chatMessagePage.ts);
// and, as the baseline in the same run, the three drizzle queries the chat handler made before
// (room check, cursor check, page). Page size 20, a cursor in the middle of 2,000 messages and
// 2,000 plans of one member. The variants take turns in rounds, so the machine's load falls on all
// alike; CPU time per page (process.cpuUsage) is printed next to wall time. BENCH_ROUNDS (default 10).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, desc, eq, lt } from 'drizzle-orm';
import { ownChatPageRows } from '../src/chats/chatMessagePage.js';
import { findChatMessage, findOwnChatRoom } from '../src/chats/chatRepository.js';
import { databasePort, postgresPort, type DatabasePort } from '../src/db/databasePort.js';
import { openSqliteDatabasePort } from '../src/db/openDatabasePort.js';
import { openPostgresDatabase } from '../src/db/postgresDatabase.js';
import { findOwnListCursor, listOwnTripPlans } from '../src/trips/tripPlanRepository.js';
import { benchPostgres } from './bench/benchPostgres.js';
import { machineLines } from './bench/machine.js';
import { cpuSeconds } from './bench/processCpu.js';
import { textTable } from './bench/textTable.js';

const out = (line: string) => process.stdout.write(`${line}\n`);
const PAGE = 20;
const PLANS = 2000;
const MESSAGES = 2000;
const PER_ROUND = 200;
const production = { guardReentry: false };

interface Seeded {
  memberId: number;
  chatRoomId: number;
  /** a plan id and a message id in the middle of their lists: the cursors of the pages measured */
  planCursor: number;
  messageCursor: number;
}

async function seed(port: DatabasePort): Promise<Seeded> {
  const { members, tripPlans, chatRooms, chatMessages } = port.t;
  const now = Date.now();
  const [member] = await port.run((q) =>
    q.insert(members).values({ email: 'pages@example.com', name: 'Pages', provider: 'bench', createdAt: now, updatedAt: now }).returning({ id: members.id }),
  );
  const memberId = member!.id;
  const planIds: number[] = [];
  for (let start = 0; start < PLANS; start += 500) {
    const rows = await port.run((q) =>
      q
        .insert(tripPlans)
        .values(
          Array.from({ length: 500 }, (_, i) => ({
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
    planIds.push(...rows.map((r) => r.id));
  }
  const [room] = await port.run((q) => q.select({ id: chatRooms.id }).from(chatRooms).where(eq(chatRooms.tripPlanId, planIds[0]!)).execute());
  const chatRoomId = room!.id;
  // A generated day's summary is a few hundred characters.
  const content = 'Day 2 in Busan: Haeundae Beach in the morning, lunch at a market, Gamcheon Culture Village after. '.repeat(3);
  const messageIds: number[] = [];
  for (let start = 0; start < MESSAGES; start += 500) {
    const rows = await port.run((q) =>
      q
        .insert(chatMessages)
        .values(
          Array.from({ length: 500 }, (_, i) => ({
            chatRoomId,
            messageType: i % 2 ? ('ASSISTANT' as const) : ('USER' as const),
            content,
            createdAt: now + start + i,
          })),
        )
        .returning({ id: chatMessages.id }),
    );
    messageIds.push(...rows.map((r) => r.id));
  }
  // Plans were created newest first, so planIds is also the list's default order (createdAt:desc).
  return { memberId, chatRoomId, planCursor: planIds[PLANS / 2]!, messageCursor: messageIds[MESSAGES / 2]! };
}

/** The chat page as the handler read it before issue 16: three drizzle builder queries. */
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
      name: 'trip list page (cursor lookup + page)',
      page: async () => {
        const cursor = await findOwnListCursor(port, s.memberId, s.planCursor);
        return (await listOwnTripPlans(port, s.memberId, { field: 'createdAt', direction: 'desc' }, PAGE, cursor!)).length;
      },
    },
    { name: 'chat page (one prepared statement)', page: async () => (await ownChatPageRows(port, s.memberId, s.chatRoomId, PAGE, s.messageCursor)).length },
    { name: 'chat page before (three drizzle queries)', page: () => drizzleChatPage(port, s.memberId, s.chatRoomId, s.messageCursor) },
  ];
}

interface Measured {
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

async function measure(port: DatabasePort, rounds: number): Promise<Map<string, Measured>> {
  const s = await seed(port);
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
      for (let i = 0; i < PER_ROUND; i++) await v.page();
      const wall = Number(process.hrtime.bigint() - start) / 1000;
      const used = process.cpuUsage(cpu);
      const serverAtEnd = server();
      const total = totals.get(v.name)!;
      total.wallUs += wall;
      total.cpuUs += used.user + used.system;
      total.serverCpuUs =
        total.serverCpuUs === null || serverAtStart === null || serverAtEnd === null ? null : total.serverCpuUs + (serverAtEnd - serverAtStart) * 1e6;
      total.pages += PER_ROUND;
    }
  }
  return totals;
}

function report(engine: string, totals: Map<string, Measured>): string[][] {
  const trip = totals.get('trip list page (cursor lookup + page)')!;
  const cpuOf = (m: Measured) => (m.cpuUs + (m.serverCpuUs ?? 0)) / m.pages;
  return [...totals].map(([name, m]) => [
    engine,
    name,
    (m.wallUs / m.pages).toFixed(1),
    (m.cpuUs / m.pages).toFixed(1),
    m.serverCpuUs === null ? '-' : (m.serverCpuUs / m.pages).toFixed(1),
    (cpuOf(m) / cpuOf(trip)).toFixed(2),
    (m.wallUs / m.pages / (trip.wallUs / trip.pages)).toFixed(2),
  ]);
}

async function main(): Promise<void> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? '10');
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('BENCH_ROUNDS must be a positive integer');
  out('== Trip Itinerary Service: chat history page vs trip list page (repository level, in-process)');
  for (const line of machineLines()) out(line);
  out(`pages:  ${PAGE} items after a cursor in the middle of ${MESSAGES} messages / ${PLANS} plans; ${rounds} rounds of ${PER_ROUND} pages per variant`);
  out('');
  const rows: string[][] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-bench-chatpage-'));
  const sqlite = openSqliteDatabasePort(path.join(dir, 'bench.sqlite'), production);
  try {
    rows.push(...report('SQLite', await measure(sqlite, rounds)));
  } finally {
    await sqlite.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const pg = await benchPostgres();
  if (pg.available) {
    const port = databasePort(postgresPort(await openPostgresDatabase(pg.url, { poolMax: 4 }), production));
    try {
      rows.push(...report('PostgreSQL', await measure(port, rounds)));
    } finally {
      await port.close();
      await pg.drop();
    }
  } else out(`PostgreSQL skipped: ${pg.reason}`);
  out(textTable(['engine', 'page', 'wall µs/page', 'CPU µs/page', 'server CPU µs/page', 'CPU (both) ÷ trip list', 'wall ÷ trip list'], rows));
  out(`load:   ${os.loadavg()[0]!.toFixed(1)} (1-minute average at the end)`);
}

await main();
