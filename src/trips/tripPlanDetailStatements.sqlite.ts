// A plan's detail on SQLite (tripPlanDetailStatements.ts): one better-sqlite3 statement, prepared on
// first use and held here, in raw mode, run through the port's mutex; themes are stored as JSON text.
import type Database from 'better-sqlite3';
import type { SqlitePort } from '../db/databasePort.js';
import { toDetailItem, tripPlanDetailSql, type DetailRow } from './tripPlanDetail.js';
import type { TripPlanDetailStatements } from './tripPlanDetailStatements.js';

export function sqliteTripPlanDetail(engine: SqlitePort): TripPlanDetailStatements {
  let statement: Database.Statement<[number, number], DetailRow<string>> | undefined;
  return {
    own: (memberId, tripPlanId) =>
      engine.run(() => {
        const row = (statement ??= engine.db.$client.prepare<[number, number], DetailRow<string>>(tripPlanDetailSql('?', '?')).raw(true)).get(
          tripPlanId,
          memberId,
        );
        return Promise.resolve(row && toDetailItem(row, JSON.parse(row[8]) as string[]));
      }),
  };
}
