// The trip list page on SQLite (tripPlanListStatements.ts): a better-sqlite3 statement prepared once
// per connection, in raw mode (rows as arrays), run through the port's mutex.
import type { SqlitePort } from '../db/databasePort.js';
import { prepared } from '../db/preparedStatements.js';
import { cursorValueOf, listOwnTripPlansSql, listPageKey, toListItems, type ListRow } from './tripPlanList.js';
import type { TripPlanListStatements } from './tripPlanListStatements.js';

export function sqliteTripPlanList(engine: SqlitePort): TripPlanListStatements {
  return {
    page(memberId, sort, size, cursor) {
      const key = listPageKey(sort, cursor !== null);
      return engine.run((db) => {
        const statement = prepared(db, key, () => db.$client.prepare<Record<string, unknown>, ListRow>(listOwnTripPlansSql(sort, cursor !== null)).raw(true));
        const rows = statement.all(
          cursor ? { memberId, limit: size + 1, cursorValue: cursorValueOf(sort, cursor), cursorId: cursor.id } : { memberId, limit: size + 1 },
        );
        return Promise.resolve(toListItems(rows));
      });
    },
  };
}
