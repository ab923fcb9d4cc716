// One-time codes of completed OpenID Connect sign-ins: a code names the new session and is taken
// exactly once, on any instance.
import { eq, lt } from 'drizzle-orm';
import type { DatabasePort } from '../db/databasePort.js';
import type { oidcSignInCodes } from '../db/schema.pg.js';

export type SignInCode = typeof oidcSignInCodes.$inferSelect;

/** Saves `code`, and drops the codes that expired before `nowMs`. */
export function saveSignInCode(db: DatabasePort, code: SignInCode, nowMs: number): Promise<void> {
  const { oidcSignInCodes } = db.t;
  return db.tx(async (q) => {
    await q.delete(oidcSignInCodes).where(lt(oidcSignInCodes.expiresAt, nowMs)).returning({ id: oidcSignInCodes.id });
    await q.insert(oidcSignInCodes).values(code).returning({ id: oidcSignInCodes.id });
  });
}

/** Removes and returns the code `id`, expired or not; undefined when there is none (or it was taken). */
export function takeSignInCode(db: DatabasePort, id: string): Promise<SignInCode | undefined> {
  const { oidcSignInCodes } = db.t;
  return db.run(async (q) => (await q.delete(oidcSignInCodes).where(eq(oidcSignInCodes.id, id)).returning())[0]);
}
