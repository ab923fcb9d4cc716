// The Fastify peer's reads on PostgreSQL (peerDatabase.ts), as the service runs its own: a pg.Pool
// of DATABASE_POOL_MAX connections (the service's default, 10), named prepared statements
// `{ name, text, values }` that each connection parses and plans once, rows as arrays, int8 read as
// a number, and generic plans (src/db/postgresDatabase.ts says why).
import pg from 'pg';
import { liveSessionOwnerSql } from '../../src/auth/liveSessionLookup.js';
import { listOwnTripPlansSql, type ListParameter, type TripSort } from '../../src/trips/tripPlanList.js';
import { cursorSql, cursorValueIn, detailSql, sorts, type CursorRow, type DetailRow, type ListRow, type PeerDatabase } from './peerDatabase.js';

pg.types.setTypeParser(pg.types.builtins.INT8, Number);

const pgParameters: Record<ListParameter, string> = { memberId: '$1', limit: '$2', cursorValue: '$3', cursorId: '$4' };
const liveSession = { name: 'peerLiveSessionOwner', text: liveSessionOwnerSql('$1', '$2'), rowMode: 'array' } as const;
const cursor = { name: 'peerCursor', text: cursorSql('$1', '$2'), rowMode: 'array' } as const;
const detail = { name: 'peerDetail', text: detailSql('$1', '$2'), rowMode: 'array' } as const;
const pages = new Map(
  sorts.flatMap((sort) => {
    const [field, direction] = sort.split(':') as [TripSort['field'], TripSort['direction']];
    return [false, true].map((withCursor) => {
      const name = `peerPage:${sort}:${withCursor}`;
      return [name, { name, text: listOwnTripPlansSql({ field, direction }, withCursor, (p) => pgParameters[p]), rowMode: 'array' } as const];
    });
  }),
);

export function postgresPeerDatabase(url: string, poolMax: number): PeerDatabase {
  const pool = new pg.Pool({ connectionString: url, max: poolMax, options: '-c plan_cache_mode=force_generic_plan' });
  pool.on('error', () => {});

  return {
    liveSessionOwner: (sessionId, nowMs) => pool.query<[number, string]>({ ...liveSession, values: [sessionId, nowMs] }).then(({ rows: [row] }) => row?.[0]),
    cursorRow: (memberId, tripPlanId) => pool.query<CursorRow>({ ...cursor, values: [tripPlanId, memberId] }).then(({ rows: [row] }) => row),
    pageRows(sort, memberId, limit, after) {
      const statement = pages.get(`peerPage:${sort}:${after !== undefined}`)!;
      const values = after ? [memberId, limit, cursorValueIn(sort, after), after[0]] : [memberId, limit];
      return pool.query<ListRow>({ ...statement, values }).then(({ rows }) => rows);
    },
    detailRow: (memberId, tripPlanId) => pool.query<DetailRow>({ ...detail, values: [tripPlanId, memberId] }).then(({ rows: [row] }) => row),
    close: () => pool.end(),
  };
}
