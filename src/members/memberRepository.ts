// Members: created on first sign-in. Roles belong to sessions (auth_session.role), not to members.
import { eq } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { members } from '../db/schema.js';

export type MemberRow = typeof members.$inferSelect;

export function findMemberById(db: Db, id: number): MemberRow | undefined {
  return db.select().from(members).where(eq(members.id, id)).get();
}

export function findOrCreateMember(db: Db, input: { email: string; name: string; provider: string }, nowMs: number): MemberRow {
  const email = input.email.toLowerCase();
  const existing = db.select().from(members).where(eq(members.email, email)).get();
  if (existing) return existing;
  return db.insert(members).values({ email, name: input.name, provider: input.provider, createdAt: nowMs, updatedAt: nowMs }).returning().get();
}
