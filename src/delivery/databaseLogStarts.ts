// The service's record of where its plan logs began (logStarts.ts), in its database (SQLite or
// PostgreSQL, table plan_log_start): it outlives a restart of the service and of Redis, and every
// instance of a PostgreSQL database shares it. One row per log; a claim is one upsert, made once
// per log and run by each instance (epochStarts.ts keeps what it learnt).
import { eq, sql } from 'drizzle-orm';
import type { DatabasePort } from '../db/databasePort.js';
import { claimAgainst, type LogStarts } from './logStarts.js';

export function createDatabaseLogStarts(db: DatabasePort): LogStarts {
  const { planLogStarts } = db.t;
  const newestRun = async (stream: string) =>
    (await db.run((q) => q.select({ run: planLogStarts.run }).from(planLogStarts).where(eq(planLogStarts.stream, stream))))[0]?.run;
  return {
    async claim(stream, run) {
      // The row is written (or its run raised) only when this writer is the first of its run, atomically on either engine.
      const written = await db.run((q) =>
        q
          .insert(planLogStarts)
          .values({ stream, run })
          .onConflictDoUpdate({ target: planLogStarts.stream, set: { run }, setWhere: sql`${planLogStarts.run} < ${run}` })
          .returning({ run: planLogStarts.run }),
      );
      if (written.length > 0) return 'first';
      return claimAgainst((await newestRun(stream)) ?? run, run);
    },
    async began(stream) {
      return (await newestRun(stream)) !== undefined;
    },
  };
}
