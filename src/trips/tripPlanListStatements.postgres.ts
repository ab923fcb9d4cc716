// The trip list page on PostgreSQL (tripPlanListStatements.ts): a named statement on the pool, with
// rows as arrays.
import type { PostgresPort } from '../db/databasePort.js';
import { prepared } from '../db/preparedStatements.js';
import { cursorValueOf, listOwnTripPlansSql, listPageKey, toListItems, type ListParameter, type ListRow } from './tripPlanList.js';
import type { TripPlanListStatements } from './tripPlanListStatements.js';

const pgParameters: Record<ListParameter, string> = { memberId: '$1', limit: '$2', cursorValue: '$3', cursorId: '$4' };

export function postgresTripPlanList(engine: PostgresPort): TripPlanListStatements {
  return {
    page(memberId, sort, size, cursor) {
      const key = listPageKey(sort, cursor !== null);
      const text = prepared(engine, key, () => listOwnTripPlansSql(sort, cursor !== null, (name) => pgParameters[name]));
      const values = cursor ? [memberId, size + 1, cursorValueOf(sort, cursor), cursor.id] : [memberId, size + 1];
      // A named statement: each pooled connection parses and plans it once.
      return engine.db.$client.query<ListRow>({ name: key, text, values, rowMode: 'array' }).then((result) => toListItems(result.rows));
    },
  };
}
