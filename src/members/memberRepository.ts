// Members: created on first sign-in. Roles belong to sessions (auth_session.role), not to members.
import { eq } from 'drizzle-orm';
import type { DatabasePort, PgQueries } from '../db/databasePort.js';
import type { members } from '../db/schema.pg.js';

export type MemberRow = typeof members.$inferSelect;

export function findMemberById(db: DatabasePort, id: number): Promise<MemberRow | undefined> {
  const { members } = db.t;
  return db.run(async (q) => (await q.select().from(members).where(eq(members.id, id)))[0]);
}

/**
 * The member with this e-mail, created when there is none, with the queries of a transaction the
 * caller holds (sign-in creates the session in the same one). Two first sign-ins racing on
 * PostgreSQL: the loser's insert conflicts on the unique e-mail and it reads the winner's row.
 */
export async function findOrCreateMemberIn(
  db: DatabasePort,
  q: PgQueries,
  input: { email: string; name: string; provider: string },
  nowMs: number,
): Promise<MemberRow> {
  const { members } = db.t;
  const email = input.email.toLowerCase();
  const [existing] = await q.select().from(members).where(eq(members.email, email));
  if (existing) return existing;
  const [created] = await q
    .insert(members)
    .values({ email, name: input.name, provider: input.provider, createdAt: nowMs, updatedAt: nowMs })
    .onConflictDoNothing({ target: members.email })
    .returning();
  if (created) return created;
  const [winner] = await q.select().from(members).where(eq(members.email, email));
  return winner!;
}
