// The Fastify peer's reads on SQLite (peerDatabase.ts): raw better-sqlite3 statements prepared once,
// the list page one per order and with or without a cursor.
import BetterSqlite3 from 'better-sqlite3';
import { liveSessionOwnerSql } from '../../src/auth/liveSessionLookup.js';
import { listOwnTripPlansSql, type TripSort } from '../../src/trips/tripPlanList.js';
import { cursorSql, cursorValueIn, detailSql, sorts, type CursorRow, type DetailRow, type ListRow, type PeerDatabase } from './peerDatabase.js';

type StoredDetail = Omit<DetailRow, 8> & { 8: string };

export function sqlitePeerDatabase(file: string): PeerDatabase {
  const sqlite = new BetterSqlite3(file);
  sqlite.pragma('busy_timeout = 5000');
  const liveSession = sqlite.prepare<[string, number], [number, string]>(liveSessionOwnerSql('?', '?')).raw(true);
  const pages = new Map<string, BetterSqlite3.Statement<Record<string, unknown>, ListRow>>();
  for (const sort of sorts)
    for (const withCursor of [false, true]) {
      const [field, direction] = sort.split(':') as [TripSort['field'], TripSort['direction']];
      pages.set(`${sort}:${withCursor}`, sqlite.prepare<Record<string, unknown>, ListRow>(listOwnTripPlansSql({ field, direction }, withCursor)).raw(true));
    }
  const cursor = sqlite.prepare<[number, number], CursorRow>(cursorSql('?', '?')).raw(true);
  const detail = sqlite.prepare<[number, number], StoredDetail>(detailSql('?', '?')).raw(true);

  return {
    liveSessionOwner: (sessionId, nowMs) => liveSession.get(sessionId, nowMs)?.[0],
    cursorRow: (memberId, tripPlanId) => cursor.get(tripPlanId, memberId),
    pageRows: (sort, memberId, limit, after) =>
      after
        ? pages.get(`${sort}:true`)!.all({ memberId, limit, cursorValue: cursorValueIn(sort, after), cursorId: after[0] })
        : pages.get(`${sort}:false`)!.all({ memberId, limit }),
    detailRow(memberId, tripPlanId) {
      const row = detail.get(tripPlanId, memberId);
      if (!row) return undefined;
      const parsed = [...row] as unknown as DetailRow;
      parsed[8] = JSON.parse(row[8]) as DetailRow[8];
      return parsed;
    },
    close: () => void sqlite.close(),
  };
}
