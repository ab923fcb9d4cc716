// Bulk seeding on PostgreSQL for the HTTP benchmark: `count` plans of one member and their chat
// rooms in two set-based statements (generate_series), with varied, reproducible values (setseed),
// shaped like seedTrips.ts's (created_at over two years, start dates over three, 1-7 days).
import type pg from 'pg';

/** Inserts the plans and their rooms; returns the id of the plan in the middle of the member's. */
export async function insertTripPlansOnPostgres(pool: pg.Pool, memberId: number, count: number, nowMs: number): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT setseed(0.42)');
    await client.query(
      `INSERT INTO trip_plan (member_id, title, region, start_date, end_date, duration, people_count, themes, transportation,
                              generation_status, created_at, updated_at)
       SELECT $1, region || ' trip', region, to_char(start, 'YYYY-MM-DD'), to_char(start + duration - 1, 'YYYY-MM-DD'), duration,
              1 + floor(random() * 6)::int, '["FAMOUS_SPOT","RESTAURANT"]'::jsonb, 'PUBLIC_TRANSIT',
              (ARRAY['COMPLETED','COMPLETED','COMPLETED','COMPLETED','PENDING','FAILED','CANCELLED'])[1 + floor(random() * 7)::int],
              created, created
       FROM (SELECT (ARRAY['Busan','Seoul','Jeju','Gyeongju','Gangneung','Jeonju','Yeosu','Sokcho'])[1 + floor(random() * 8)::int] AS region,
                    DATE '2025-01-01' + floor(random() * 3 * 365)::int AS start,
                    1 + floor(random() * 7)::int AS duration,
                    $2::bigint - floor(random() * 2 * 365 * 86400000)::bigint AS created
             FROM generate_series(1, $3)) AS seed`,
      [memberId, nowMs, count],
    );
    await client.query(
      `INSERT INTO chat_room (member_id, trip_plan_id, created_at)
       SELECT member_id, id, created_at FROM trip_plan p WHERE member_id = $1 AND NOT EXISTS (SELECT 1 FROM chat_room r WHERE r.trip_plan_id = p.id)`,
      [memberId],
    );
    await client.query('COMMIT');
    await client.query('ANALYZE trip_plan; ANALYZE chat_room');
    const { rows } = await client.query<{ id: number }>('SELECT id FROM trip_plan WHERE member_id = $1 ORDER BY id LIMIT 1 OFFSET $2', [
      memberId,
      Math.floor(count / 2),
    ]);
    return Number(rows[0]!.id);
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
