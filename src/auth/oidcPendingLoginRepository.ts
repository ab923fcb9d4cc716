// Pending OpenID Connect sign-ins, in the database so that any instance can complete one another
// instance started. A row is found by the hash of the browser's cookie and taken exactly once.
import { eq, lt } from 'drizzle-orm';
import type { DatabasePort } from '../db/databasePort.js';
import type { oidcPendingLogins } from '../db/schema.pg.js';

export type PendingLogin = typeof oidcPendingLogins.$inferSelect;

/** Saves `login`, and drops the pending sign-ins that expired before `nowMs` (nobody can finish them). */
export function savePendingLogin(db: DatabasePort, login: PendingLogin, nowMs: number): Promise<void> {
  const { oidcPendingLogins } = db.t;
  return db.tx(async (q) => {
    await q.delete(oidcPendingLogins).where(lt(oidcPendingLogins.expiresAt, nowMs)).returning({ id: oidcPendingLogins.id });
    await q.insert(oidcPendingLogins).values(login).returning({ id: oidcPendingLogins.id });
  });
}

/** Removes and returns the pending sign-in `id`, expired or not; undefined when there is none (or it was taken). */
export function takePendingLogin(db: DatabasePort, id: string): Promise<PendingLogin | undefined> {
  const { oidcPendingLogins } = db.t;
  return db.run(async (q) => (await q.delete(oidcPendingLogins).where(eq(oidcPendingLogins.id, id)).returning())[0]);
}
