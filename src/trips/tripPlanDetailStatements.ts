// A plan's detail as each engine reads it (tripPlanDetail.ts has its SQL text and its row): an
// engine-native statement prepared once, tripPlanDetailStatements.sqlite.ts on better-sqlite3 and
// tripPlanDetailStatements.postgres.ts on node-postgres. The composition root picks the opened
// engine's; getTripPlan asks the port's.
import type { TripPlanDetailItem } from './tripPlanDetail.js';

export interface TripPlanDetailStatements {
  /** The member's plan with its chat room, or undefined when it does not exist or is another member's. */
  own(memberId: number, tripPlanId: number): Promise<TripPlanDetailItem | undefined>;
}

declare module '../db/databasePort.js' {
  interface EngineStatements {
    tripPlanDetail: TripPlanDetailStatements;
  }
}
