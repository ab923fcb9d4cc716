// Ended sessions (expired, or revoked by logout or refresh-token reuse) are deleted once they have
// been over for SESSION_RETENTION_DAYS, every SESSION_PURGE_INTERVAL_MINUTES. A refresh token of a
// purged session finds no session and answers 401 AUTH004, exactly as a revoked one does. Deletes
// run in batches with a turn of the event loop between them, so a large backlog never blocks
// requests for long; a storage failure is logged and the next interval tries again.
import { inArray, lt } from 'drizzle-orm';
import type { DatabasePort } from '../db/databasePort.js';
import type { Logger } from '../kernel/logger.js';

export const SESSION_PURGE_BATCH = 1000;

/** Deletes up to `limit` sessions that ended before `cutoffMs`; returns how many. */
export function deleteEndedSessions(db: DatabasePort, cutoffMs: number, limit: number): Promise<number> {
  const { authSessions } = db.t;
  return db.run(async (q) => {
    // A union of two index range scans (expires_at, revoked_at) rather than one scan testing both.
    const ended = q
      .select({ id: authSessions.id })
      .from(authSessions)
      .where(lt(authSessions.expiresAt, cutoffMs))
      .union(q.select({ id: authSessions.id }).from(authSessions).where(lt(authSessions.revokedAt, cutoffMs)))
      .limit(limit);
    const deleted = await q.delete(authSessions).where(inArray(authSessions.id, ended)).returning({ id: authSessions.id });
    return deleted.length;
  });
}

export interface SessionPurge {
  /** resolves when no purge is running */
  idle(): Promise<void>;
  stop(): void;
}

export function startSessionPurge(deps: { db: DatabasePort; clock: () => number; log: Logger; retentionDays: number; intervalMinutes: number }): SessionPurge {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  async function purge(): Promise<void> {
    const cutoff = deps.clock() - deps.retentionDays * 86_400_000;
    let deleted = 0;
    try {
      for (;;) {
        const batch = await deleteEndedSessions(deps.db, cutoff, SESSION_PURGE_BATCH);
        deleted += batch;
        if (batch < SESSION_PURGE_BATCH || stopped) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (deleted > 0) deps.log.info({ deleted, endedBefore: new Date(cutoff).toISOString() }, 'ended sessions purged');
    } catch (error) {
      deps.log.warn({ err: error, deleted }, 'session purge failed; the next interval tries again');
    }
  }

  const timer = setInterval(() => {
    running = running.then(purge);
  }, deps.intervalMinutes * 60_000);
  timer.unref();

  return {
    idle: () => running,
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
