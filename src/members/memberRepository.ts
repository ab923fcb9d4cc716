// Members: created on first sign-in. Roles belong to sessions (auth_session.role), not to members.
// A member from an OpenID Connect provider is its account there, (issuer, subject); a member of
// dev-login or the token tool has no account and is identified by its e-mail among such members.
import { and, eq, isNull } from 'drizzle-orm';
import type { DatabasePort, PgQueries } from '../db/databasePort.js';
import type { members } from '../db/schema.pg.js';

export type MemberRow = typeof members.$inferSelect;

/** Who signs in: an e-mail (dev-login, token tool), or a provider's account with its current e-mail. */
export interface MemberIdentity {
  email: string;
  name: string;
  provider: string;
  /** present for an OpenID Connect sign-in */
  account?: { issuer: string; subject: string };
}

export function findMemberById(db: DatabasePort, id: number): Promise<MemberRow | undefined> {
  const { members } = db.t;
  return db.run(async (q) => (await q.select().from(members).where(eq(members.id, id)))[0]);
}

/**
 * The member of `input`, created when there is none, with the queries of a transaction the caller
 * holds (sign-in creates the session in the same one). A provider's account gets its name and
 * e-mail refreshed on every sign-in.
 */
export function findOrCreateMemberIn(db: DatabasePort, q: PgQueries, input: MemberIdentity, nowMs: number): Promise<MemberRow> {
  return input.account ? upsertAccountMemberIn(db, q, { ...input, account: input.account }, nowMs) : findOrCreateLocalMemberIn(db, q, input, nowMs);
}

/** Two first sign-ins racing on PostgreSQL: the loser's insert conflicts on the e-mail and it reads the winner's row. */
async function findOrCreateLocalMemberIn(db: DatabasePort, q: PgQueries, input: MemberIdentity, nowMs: number): Promise<MemberRow> {
  const { members } = db.t;
  const email = input.email.toLowerCase();
  const local = and(eq(members.email, email), isNull(members.oidcSubject));
  const [existing] = await q.select().from(members).where(local);
  if (existing) return existing;
  const [created] = await q
    .insert(members)
    .values({ email, name: input.name, provider: input.provider, createdAt: nowMs, updatedAt: nowMs })
    // No conflict target: the e-mail's index is partial, which drizzle's SQLite builder cannot
    // name; the only other unique index (the provider account) is all NULL here and never conflicts.
    .onConflictDoNothing()
    .returning();
  if (created) return created;
  const [winner] = await q.select().from(members).where(local);
  return winner!;
}

async function upsertAccountMemberIn(
  db: DatabasePort,
  q: PgQueries,
  input: MemberIdentity & { account: { issuer: string; subject: string } },
  nowMs: number,
): Promise<MemberRow> {
  const { members } = db.t;
  const email = input.email.toLowerCase();
  const [row] = await q
    .insert(members)
    .values({
      email,
      name: input.name,
      provider: input.provider,
      oidcIssuer: input.account.issuer,
      oidcSubject: input.account.subject,
      createdAt: nowMs,
      updatedAt: nowMs,
    })
    .onConflictDoUpdate({ target: [members.oidcIssuer, members.oidcSubject], set: { email, name: input.name, updatedAt: nowMs } })
    .returning();
  return row!;
}
