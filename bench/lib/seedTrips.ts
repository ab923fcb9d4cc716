// Bulk seeding for the benchmark: members and trip plans (each with its chat room, which the list
// query joins) written with raw multi-row prepared statements in ONE transaction, so a million plans
// take seconds. Values are varied (created_at over two years, start dates over three) and reproducible.
import { type Database, addDays, defaultTitle } from '../../src/index.js';

type Sqlite = Database['sqlite'];

const regions = ['Busan', 'Seoul', 'Jeju', 'Gyeongju', 'Gangneung', 'Jeonju', 'Yeosu', 'Sokcho'];
const themes = ['FAMOUS_SPOT', 'HEALING', 'SNS_HOTSPOT', 'EXPERIENCE_ACTIVITY', 'CULTURE_ART', 'SHOPPING', 'RESTAURANT'];
const transports = ['NONE', 'WALKING', 'PUBLIC_TRANSIT', 'CAR'];
const statuses = ['COMPLETED', 'COMPLETED', 'COMPLETED', 'COMPLETED', 'PENDING', 'FAILED', 'CANCELLED'];
const twoYearsMs = 2 * 365 * 24 * 3600 * 1000;

/** mulberry32: a tiny seeded PRNG, so every run seeds the same data. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function insertMembers(sqlite: Sqlite, count: number, nowMs: number, emailPrefix = 'bench'): number[] {
  const insert = sqlite.prepare("INSERT INTO member (email, name, provider, created_at, updated_at) VALUES (?, ?, 'DEV', ?, ?)");
  return sqlite.transaction(() =>
    Array.from({ length: count }, (_v, i) => Number(insert.run(`${emailPrefix}-${i}@example.com`, `${emailPrefix} ${i}`, nowMs, nowMs).lastInsertRowid)),
  )();
}

/** The owner of each plan to insert, shuffled: a member's plans end up spread over the table as after
 * years of use, not in one contiguous run that would flatter the page reads. */
function shuffledOwners(owners: { memberId: number; count: number }[], random: () => number): Int32Array {
  const sequence = new Int32Array(owners.reduce((sum, o) => sum + o.count, 0));
  let at = 0;
  for (const { memberId, count } of owners) sequence.fill(memberId, at, (at += count));
  for (let i = sequence.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [sequence[i], sequence[j]] = [sequence[j]!, sequence[i]!];
  }
  return sequence;
}

const batchRows = 200;
const planColumns =
  'id, member_id, title, region, start_date, end_date, duration, people_count, themes, transportation, generation_status, created_at, updated_at';
const values = (columns: number, rows: number) => Array.from({ length: rows }, () => `(${Array(columns).fill('?').join(', ')})`).join(', ');

/** Inserts `count` plans for each member of `owners`, interleaved, in one transaction. */
export function insertTripPlans(sqlite: Sqlite, owners: { memberId: number; count: number }[], nowMs: number, seed = 42): void {
  // For this connection only: a large page cache for sorting the rebuilt indexes, and no foreign-key
  // lookups, as every plan's member and every room's plan is known to exist.
  sqlite.pragma('cache_size = -262144');
  sqlite.pragma('foreign_keys = OFF');
  const random = seededRandom(seed);
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;
  const days = Array.from({ length: 3 * 365 + 7 }, (_v, i) => addDays('2025-01-01', i));
  const planBatch = sqlite.prepare(`INSERT INTO trip_plan (${planColumns}) VALUES ${values(13, batchRows)}`);
  const roomBatch = sqlite.prepare(`INSERT INTO chat_room (member_id, trip_plan_id, created_at) VALUES ${values(3, batchRows)}`);
  const planOne = sqlite.prepare(`INSERT INTO trip_plan (${planColumns}) VALUES ${values(13, 1)}`);
  const roomOne = sqlite.prepare(`INSERT INTO chat_room (member_id, trip_plan_id, created_at) VALUES ${values(3, 1)}`);

  sqlite.transaction(() => {
    // Building an index once over sorted keys is much faster than updating it a million times in
    // random order: drop the two tables' indexes and recreate them from their own SQL afterwards.
    const indexes = sqlite
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('trip_plan', 'chat_room') AND sql IS NOT NULL")
      .all() as { name: string; sql: string }[];
    for (const { name } of indexes) sqlite.exec(`DROP INDEX "${name}"`);
    // Explicit ids, so each chat room can name its plan without reading lastInsertRowid back.
    let nextId = (sqlite.prepare('SELECT coalesce(max(id), 0) + 1 AS id FROM trip_plan').get() as { id: number }).id;
    let plans: unknown[] = [];
    let rooms: unknown[] = [];
    const flush = () => {
      if (plans.length === 13 * batchRows) {
        planBatch.run(plans);
        roomBatch.run(rooms);
      } else {
        for (let i = 0; i < plans.length / 13; i++) {
          planOne.run(plans.slice(i * 13, i * 13 + 13));
          roomOne.run(rooms.slice(i * 3, i * 3 + 3));
        }
      }
      plans = [];
      rooms = [];
    };
    for (const memberId of shuffledOwners(owners, random)) {
      const id = nextId++;
      const region = pick(regions);
      const duration = 1 + Math.floor(random() * 7);
      const day = Math.floor(random() * 3 * 365);
      const createdAt = nowMs - Math.floor(random() * twoYearsMs);
      const chosen = [...new Set([pick(themes), pick(themes)])];
      plans.push(
        id,
        memberId,
        defaultTitle(region, duration),
        region,
        days[day],
        days[day + duration - 1],
        duration,
        1 + Math.floor(random() * 6),
        JSON.stringify(chosen),
        pick(transports),
        pick(statuses),
        createdAt,
        createdAt,
      );
      rooms.push(memberId, id, createdAt);
      if (plans.length === 13 * batchRows) flush();
    }
    flush();
    for (const { sql } of indexes) sqlite.exec(sql);
  })();
  sqlite.pragma('foreign_keys = ON');
}
