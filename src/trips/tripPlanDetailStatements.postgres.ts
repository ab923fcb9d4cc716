// A plan's detail on PostgreSQL (tripPlanDetailStatements.ts): a named statement on the pool, the row
// as an array (jsonb themes come parsed).
import type { PostgresPort } from '../db/databasePort.js';
import { toDetailItem, tripPlanDetailSql, type DetailRow } from './tripPlanDetail.js';
import type { TripPlanDetailStatements } from './tripPlanDetailStatements.js';

const statement = { name: 'tripPlanDetail', text: tripPlanDetailSql('$1', '$2'), rowMode: 'array' } as const;

export function postgresTripPlanDetail(engine: PostgresPort): TripPlanDetailStatements {
  return {
    own: (memberId, tripPlanId) =>
      engine.db.$client
        .query<DetailRow<string[]>>({ ...statement, values: [tripPlanId, memberId] })
        .then(({ rows: [row] }) => row && toDetailItem(row, row[8])),
  };
}
