// Keyset paging flatness on PostgreSQL: the same two shapes as on SQLite (flatnessReport.ts: a
// member owning 10% of 1k and of 1M plans, spread over the table), each in a fresh database on
// BENCH_POSTGRES_URL's server (dropped afterwards), seeded with set-based statements; then the
// list's cursor lookup + page query (measurePage) in the middle and at the end of the member's plans.
import type pg from 'pg';
import { databasePortOf, postgresPort, type DatabasePort, openPostgresDatabase, listOwnTripPlansSql, type TripSort } from '../../src/index.js';
import { benchPostgres } from './benchPostgres.js';
import type { FlatnessShape } from './flatnessReport.js';
import { measurePage, pageSize } from './keysetFlatness.js';

const sorts: TripSort[] = [
  { field: 'createdAt', direction: 'desc' },
  { field: 'startDate', direction: 'asc' },
];
const columnOf = { createdAt: 'created_at', startDate: 'start_date' } as const;

/** The shape's members and plans (with their chat rooms); returns the measured member's id. */
async function seed(pool: pg.Pool, shape: FlatnessShape, nowMs: number): Promise<number> {
  const members = await pool.query<{ id: string }>(
    `INSERT INTO member (email, name, provider, created_at, updated_at)
     SELECT 'flat-' || g || '@example.com', 'flat ' || g, 'DEV', $1, $1 FROM generate_series(1, $2) g RETURNING id`,
    [nowMs, shape.members],
  );
  const ids = members.rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  const [measured, ...others] = ids as [number, ...number[]];
  await pool.query('SELECT setseed(0.42)');
  // The measured member's plans first, the others' round robin; inserted in random order so each
  // member's plans are spread over the table as after years of use.
  await pool.query(
    `INSERT INTO trip_plan (member_id, title, region, start_date, end_date, duration, people_count, themes, transportation,
                            generation_status, created_at, updated_at)
     SELECT member_id, region || ' trip', region, to_char(start, 'YYYY-MM-DD'), to_char(start + duration - 1, 'YYYY-MM-DD'), duration,
            2, '["FAMOUS_SPOT","RESTAURANT"]'::jsonb, 'PUBLIC_TRANSIT', 'COMPLETED', created, created
     FROM (SELECT CASE WHEN g <= $3 THEN $4::bigint ELSE ($5::bigint[])[1 + (g % cardinality($5::bigint[]))] END AS member_id,
                  (ARRAY['Busan','Seoul','Jeju','Gyeongju'])[1 + floor(random() * 4)::int] AS region,
                  DATE '2025-01-01' + floor(random() * 3 * 365)::int AS start,
                  1 + floor(random() * 7)::int AS duration,
                  $1::bigint - floor(random() * 2 * 365 * 86400000)::bigint AS created
           FROM generate_series(1, $2) g ORDER BY random()) AS seed`,
    [nowMs, shape.plans, shape.measured, measured, others],
  );
  await pool.query('INSERT INTO chat_room (member_id, trip_plan_id, created_at) SELECT member_id, id, created_at FROM trip_plan');
  await pool.query('ANALYZE');
  return measured;
}

async function cursorAt(pool: pg.Pool, memberId: number, sort: TripSort, position: number): Promise<number> {
  const dir = sort.direction === 'asc' ? 'ASC' : 'DESC';
  const { rows } = await pool.query<{ id: string }>(
    `SELECT id FROM trip_plan WHERE member_id = $1 ORDER BY ${columnOf[sort.field]} ${dir}, id ${dir} LIMIT 1 OFFSET $2`,
    [memberId, position],
  );
  if (!rows[0]) throw new Error(`member ${memberId} has no plan at position ${position}`);
  return Number(rows[0].id);
}

/** EXPLAIN ANALYZE of the page query as the pooled connections run it: a named statement, which
 * PostgreSQL plans generically (without the parameters' values) after five executions. */
async function explainGenericPage(pool: pg.Pool, memberId: number, sort: TripSort, cursorId: number): Promise<string[]> {
  const pgParameters = { memberId: '$1', limit: '$2', cursorValue: '$3', cursorId: '$4' } as const;
  const client = await pool.connect();
  try {
    const { rows } = await client.query<{ value: string }>(`SELECT ${columnOf[sort.field]}::text AS value FROM trip_plan WHERE id = $1`, [cursorId]);
    await client.query('SET plan_cache_mode = force_generic_plan');
    await client.query(`PREPARE page AS ${listOwnTripPlansSql(sort, true, (name) => pgParameters[name])}`);
    const plan = await client.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) EXECUTE page(${memberId}, ${pageSize + 1}, ${client.escapeLiteral(rows[0]!.value)}, ${cursorId})`,
    );
    await client.query('DEALLOCATE page; RESET plan_cache_mode');
    return plan.rows.map((r) => `  ${r['QUERY PLAN']}`);
  } finally {
    client.release();
  }
}

interface Seeded {
  shape: FlatnessShape;
  pool: pg.Pool;
  port: DatabasePort;
  memberId: number;
  drop(): Promise<void>;
}

/** A fresh database of the shape, seeded, vacuumed and checkpointed: the bulk load's background
 * work (autovacuum, dirty pages) done before anything is timed. */
async function seeded(shape: FlatnessShape, progress: (line: string) => void): Promise<Seeded> {
  const postgres = await benchPostgres();
  if (!postgres.available) throw new Error(postgres.reason);
  let port: DatabasePort | undefined;
  try {
    const database = await openPostgresDatabase(postgres.url, { poolMax: 2 });
    port = databasePortOf(postgresPort(database, { guardReentry: false }));
    const started = performance.now();
    const memberId = await seed(database.pool, shape, Date.now());
    await database.pool.query('VACUUM ANALYZE');
    await database.pool.query('CHECKPOINT');
    progress(`PostgreSQL: seeded ${shape.plans.toLocaleString('en-US')} plans in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const opened = port;
    return { shape, pool: database.pool, port: opened, memberId, drop: () => opened.close().finally(() => postgres.drop()) };
  } catch (error) {
    // The pool's open connections would keep the drop waiting and the process alive.
    try {
      await port?.close();
    } finally {
      await postgres.drop();
    }
    throw error;
  }
}

/** The large/small ratio of the page time over all 4 pages (2 sorts × middle/end), and the largest
 * of the 4 ratios. Both databases stay up and each page is timed on one, then the other, so the
 * machine's other work weighs on both alike. */
export async function keysetFlatnessOnPostgres(
  shapes: [FlatnessShape, FlatnessShape],
  iterations: number,
  progress: (line: string) => void,
): Promise<{ ratio: number; worstRatio: number }> {
  const databases: Seeded[] = [];
  try {
    for (const shape of shapes) databases.push(await seeded(shape, progress));
    const small: number[] = [];
    const large: number[] = [];
    for (const sort of sorts) {
      for (const where of ['middle', 'end'] as const) {
        for (const [i, d] of databases.entries()) {
          const position = where === 'middle' ? Math.floor(d.shape.measured / 2) : d.shape.measured - pageSize - 1;
          const cursor = await cursorAt(d.pool, d.memberId, sort, position);
          (i === 0 ? small : large).push((await measurePage(d.port, d.memberId, sort, cursor, iterations)).meanUs);
        }
      }
      const d = databases[1]!;
      progress(`PostgreSQL, ${d.shape.label} rows, sort ${sort.field}:${sort.direction}, generic plan of the page query:`);
      for (const line of await explainGenericPage(d.pool, d.memberId, sort, await cursorAt(d.pool, d.memberId, sort, Math.floor(d.shape.measured / 2))))
        progress(line);
    }
    progress(
      `PostgreSQL page means µs, ${shapes[0].label}: ${small.map((us) => us.toFixed(0)).join(' ')}; ${shapes[1].label}: ${large.map((us) => us.toFixed(0)).join(' ')}`,
    );
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    return { ratio: sum(large) / sum(small), worstRatio: Math.max(...large.map((us, i) => us / small[i]!)) };
  } finally {
    for (const d of databases) await d.drop();
  }
}
