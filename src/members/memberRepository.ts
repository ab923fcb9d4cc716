// Members: created on first sign-in; role ADMIN is granted by the token script (npm run token -- --admin).
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
  return db
    .insert(members)
    .values({ email, name: input.name, provider: input.provider, role: 'MEMBER', createdAt: nowMs, updatedAt: nowMs })
    .returning()
    .get();
}

export function setMemberRole(db: Db, id: number, role: 'MEMBER' | 'ADMIN', nowMs: number): void {
  db.update(members).set({ role, updatedAt: nowMs }).where(eq(members.id, id)).run();
}
