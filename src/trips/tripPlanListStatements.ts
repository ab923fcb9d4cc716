// The trip list page as each engine runs it (tripPlanList.ts has its SQL text and its row): an
// engine-native statement prepared once, tripPlanListStatements.sqlite.ts on better-sqlite3 and
// tripPlanListStatements.postgres.ts on node-postgres. The composition root picks the opened
// engine's; tripPlanRepository.ts asks the port's.
import type { ListCursor, TripPlanListItem, TripSort } from './tripPlanList.js';

export interface TripPlanListStatements {
  /** One page of the member's plans after `cursor` in the given order; size + 1 rows. */
  page(memberId: number, sort: TripSort, size: number, cursor: ListCursor | null): Promise<TripPlanListItem[]>;
}

declare module '../db/databasePort.js' {
  interface EngineStatements {
    tripPlanList: TripPlanListStatements;
  }
}
