// The trip list page on SQLite (tripPlanListStatements.ts): a better-sqlite3 statement per order and
// cursor use, prepared on first use and held here (not looked up per call), in raw mode (rows as
// arrays), run through the port's mutex.
import type Database from 'better-sqlite3';
import type { SqlitePort } from '../db/databasePort.js';
import { cursorValueOf, listOwnTripPlansSql, toListItems, type ListRow, type TripSort } from './tripPlanList.js';
import type { TripPlanListStatements } from './tripPlanListStatements.js';

type PageStatement = Database.Statement<Record<string, unknown>, ListRow>;

export function sqliteTripPlanList(engine: SqlitePort): TripPlanListStatements {
  // By field, direction and cursor use: no key is built per call.
  const statements: Record<TripSort['field'], Record<TripSort['direction'], [PageStatement?, PageStatement?]>> = {
    createdAt: { asc: [], desc: [] },
    startDate: { asc: [], desc: [] },
  };
  const statementFor = (sort: TripSort, withCursor: boolean): PageStatement =>
    (statements[sort.field][sort.direction][withCursor ? 1 : 0] ??= engine.db.$client
      .prepare<Record<string, unknown>, ListRow>(listOwnTripPlansSql(sort, withCursor))
      .raw(true));
  return {
    page(memberId, sort, size, cursor) {
      return engine.run(() => {
        const rows = statementFor(sort, cursor !== null).all(
          cursor ? { memberId, limit: size + 1, cursorValue: cursorValueOf(sort, cursor), cursorId: cursor.id } : { memberId, limit: size + 1 },
        );
        return Promise.resolve(toListItems(rows));
      });
    },
  };
}
