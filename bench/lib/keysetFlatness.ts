// Does a keyset page cost the same whatever the table size and however deep the page? Measures the
// database work of listTripPlans (cursor lookup + page query, the two repository calls its handler
// makes) in-process, and shows SQLite's plan for the page query.
import { type Database, type DatabasePort, listOwnTripPlansSql, findOwnListCursor, listOwnTripPlans, type TripSort } from '../../src/index.js';

export const pageSize = 20;

const columnOf = { createdAt: 'created_at', startDate: 'start_date' } as const;

/** The id at `position` (0-based) of the member's plans in `sort` order: the cursor of the page after it. */
export function cursorAt(database: Database, memberId: number, sort: TripSort, position: number): number {
  const dir = sort.direction === 'asc' ? 'ASC' : 'DESC';
  const row = database.sqlite
    .prepare(`SELECT id FROM trip_plan WHERE member_id = ? ORDER BY ${columnOf[sort.field]} ${dir}, id ${dir} LIMIT 1 OFFSET ?`)
    .get(memberId, position) as { id: number } | undefined;
  if (!row) throw new Error(`member ${memberId} has no plan at position ${position}`);
  return row.id;
}

export async function measurePage(
  port: DatabasePort,
  memberId: number,
  sort: TripSort,
  cursorId: number,
  iterations: number,
): Promise<{ meanUs: number; p99Us: number }> {
  const once = async () => {
    const cursor = (await findOwnListCursor(port, memberId, cursorId)) ?? null;
    const rows = await listOwnTripPlans(port, memberId, sort, pageSize, cursor);
    if (rows.length === 0) throw new Error('empty page');
  };
  for (let i = 0; i < Math.min(50, iterations); i++) await once();
  const times = new Float64Array(iterations);
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    await once();
    times[i] = Number(process.hrtime.bigint() - start) / 1000;
  }
  times.sort();
  const meanUs = times.reduce((sum, t) => sum + t, 0) / iterations;
  return { meanUs, p99Us: times[Math.ceil(0.99 * iterations) - 1]! };
}

/** EXPLAIN QUERY PLAN of the exact SQL listOwnTripPlans runs after a cursor. */
export function explainPageQuery(database: Database, memberId: number, sort: TripSort, cursorId: number): string[] {
  const cursor = database.sqlite
    .prepare('SELECT id, created_at AS createdAt, start_date AS startDate FROM trip_plan WHERE id = ? AND member_id = ?')
    .get(cursorId, memberId) as { id: number; createdAt: number; startDate: string } | undefined;
  if (!cursor) throw new Error(`no plan ${cursorId} of member ${memberId}`);
  const query = listOwnTripPlansSql(sort, true);
  const params = { memberId, limit: pageSize + 1, cursorValue: sort.field === 'createdAt' ? cursor.createdAt : cursor.startDate, cursorId: cursor.id };
  const rows = database.sqlite.prepare(`EXPLAIN QUERY PLAN ${query}`).all(params) as { id: number; parent: number; detail: string }[];
  const depth = new Map<number, number>([[0, 0]]);
  return [
    query.replace(/\s+/g, ' '),
    ...rows.map((row) => {
      const level = (depth.get(row.parent) ?? 0) + 1;
      depth.set(row.id, level);
      return `${'  '.repeat(level)}${row.detail}`;
    }),
  ];
}

/** A plan line that reads a table or index end to end, or sorts: what keyset paging must avoid. */
export function isFullScanOrSort(planLine: string): boolean {
  return /^\s*SCAN\b/.test(planLine) || /TEMP B-TREE/.test(planLine);
}
