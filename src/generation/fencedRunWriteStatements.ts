// The two writes a run makes per day (fencedRunWrites.ts) as each engine makes them: engine-native
// statements of hand-written SQL, because through drizzle's builder they were the generation's
// largest cost (drizzle 39.5% of its CPU, insertDay 36%). fencedRunWriteStatements.postgres.ts
// sends one statement per write, its fence a CTE the inserts select from;
// fencedRunWriteStatements.sqlite.ts runs the fence and the inserts in one BEGIN IMMEDIATE
// transaction of better-sqlite3 statements. Both go through the port they are given (its mutex on
// SQLite, its query error count). The composition root picks the opened engine's.
// Nothing is read back: the statements return the ids they inserted.
import type { DatabasePort } from '../db/databasePort.js';
import type { PlannedDay } from '../itinerary/plannedDay.js';
import type { Transportation } from '../itinerary/travel.js';
import type { DaySummary, FenceAt } from './fencedRunWrites.js';
import type { Fenced } from './generationLeases.js';

export interface InsertedDay {
  dayId: number;
  /** the id of each stop by its visit order (1, 2, …) */
  stopIds: ReadonlyMap<number, number>;
}

export interface FencedRunWriteStatements {
  /**
   * The day (summary_pending set) with its stops, in one step with the fence (the lease's renewal);
   * null when a row of that day number was there already (nothing inserted), held: false when the
   * lease is lost (nothing written).
   */
  insertDay(port: DatabasePort, at: FenceAt, day: PlannedDay, transportation: Transportation): Promise<Fenced<InsertedDay | null>>;
  /**
   * The day's summary as the assistant's message, inserted by the statement that clears the day's
   * summary_pending, in one step with the fence; null when the day's summary was stored already,
   * held: false when the lease is lost.
   */
  insertDaySummary(port: DatabasePort, at: FenceAt, summary: DaySummary): Promise<Fenced<{ id: number } | null>>;
}

declare module '../db/databasePort.js' {
  interface EngineStatements {
    fencedRunWrites: FencedRunWriteStatements;
  }
}
