// Ended sessions (expired, or revoked by logout or refresh-token reuse) are deleted once they have
// been over for SESSION_RETENTION_DAYS, every SESSION_PURGE_INTERVAL_MINUTES. A refresh token of a
// purged session finds no session and answers 401 AUTH004, exactly as a revoked one does. Deletes
// run in batches with a turn of the event loop between them, so a large backlog never blocks
// requests for long; a storage failure is logged and the next interval tries again.
import type { Db } from '../db/database.js';
import { prepared } from '../db/preparedStatements.js';
import type { Logger } from '../logger.js';

export const SESSION_PURGE_BATCH = 1000;

/** Deletes up to `limit` sessions that ended before `cutoffMs`; returns how many. */
export function deleteEndedSessions(db: Db, cutoffMs: number, limit: number): number {
  const statement = prepared(db, 'deleteEndedSessions', () =>
    db.$client.prepare<{ cutoff: number; limit: number }>(
      `DELETE FROM auth_session WHERE id IN (
         SELECT id FROM auth_session WHERE expires_at < @cutoff
         UNION SELECT id FROM auth_session WHERE revoked_at < @cutoff
         LIMIT @limit)`,
    ),
  );
  return statement.run({ cutoff: cutoffMs, limit }).changes;
}

export interface SessionPurge {
  /** resolves when no purge is running */
  idle(): Promise<void>;
  stop(): void;
}

export function startSessionPurge(deps: { db: Db; clock: () => number; log: Logger; retentionDays: number; intervalMinutes: number }): SessionPurge {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  async function purge(): Promise<void> {
    const cutoff = deps.clock() - deps.retentionDays * 86_400_000;
    let deleted = 0;
    try {
      for (;;) {
        const batch = deleteEndedSessions(deps.db, cutoff, SESSION_PURGE_BATCH);
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
