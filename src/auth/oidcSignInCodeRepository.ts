// One-time codes of completed OpenID Connect sign-ins: a code names the new session and is taken
// exactly once, on any instance, and only by the page that started the sign-in: the one holding the
// verifier of its code challenge or, for a sign-in started without one, the browser holding its
// cookie. Anyone else's attempt leaves the code in place for that page.
import { and, eq, isNull, lt, or, type SQL } from 'drizzle-orm';
import type { DatabasePort } from '../db/databasePort.js';
import type { oidcSignInCodes } from '../db/schema.pg.js';

export type SignInCode = typeof oidcSignInCodes.$inferSelect;

/** What the exchange presented: the challenge of its verifier and the hash of its cookie (null when absent). */
export interface CodePresenter {
  codeChallenge: string | null;
  browserKeyHash: string | null;
}

/** Saves `code`, and drops the codes that expired before `nowMs`. */
export function saveSignInCode(db: DatabasePort, code: SignInCode, nowMs: number): Promise<void> {
  const { oidcSignInCodes } = db.t;
  return db.tx(async (q) => {
    await q.delete(oidcSignInCodes).where(lt(oidcSignInCodes.expiresAt, nowMs)).returning({ id: oidcSignInCodes.id });
    await q.insert(oidcSignInCodes).values(code).returning({ id: oidcSignInCodes.id });
  });
}

/**
 * Removes and returns the code `id` when `presenter` is the one it is bound to and it is live at
 * `nowMs`; otherwise `unknown` (no such code, taken, or expired) or `not-bound` (it stays).
 */
export function takeSignInCode(db: DatabasePort, id: string, presenter: CodePresenter, nowMs: number): Promise<SignInCode | 'unknown' | 'not-bound'> {
  const { oidcSignInCodes: t } = db.t;
  const holders: SQL[] = [];
  if (presenter.codeChallenge !== null) holders.push(eq(t.codeChallenge, presenter.codeChallenge));
  if (presenter.browserKeyHash !== null) holders.push(and(isNull(t.codeChallenge), eq(t.browserKeyHash, presenter.browserKeyHash))!);
  return db.run(async (q) => {
    if (holders.length > 0) {
      const [taken] = await q
        .delete(t)
        .where(and(eq(t.id, id), or(...holders)))
        .returning();
      if (taken) return taken.expiresAt > nowMs ? taken : 'unknown';
    }
    const [kept] = await q.select({ expiresAt: t.expiresAt }).from(t).where(eq(t.id, id));
    return kept && kept.expiresAt > nowMs ? 'not-bound' : 'unknown';
  });
}
