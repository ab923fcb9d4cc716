// Prompt templates of the AI planner. At most one active per (promptType, agentType): activating a
// template deactivates the other in the same transaction (a partial unique index backs this up).
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { promptTemplates } from '../db/schema.js';

export type PromptTemplateRow = typeof promptTemplates.$inferSelect;
type PromptType = PromptTemplateRow['promptType'];
type AgentType = PromptTemplateRow['agentType'];

export function findPromptTemplate(db: Db, id: number): PromptTemplateRow | undefined {
  return db.select().from(promptTemplates).where(eq(promptTemplates.id, id)).get();
}

export function findActivePromptTemplate(db: Db, promptType: PromptType, agentType: AgentType): PromptTemplateRow | undefined {
  return db
    .select()
    .from(promptTemplates)
    .where(and(eq(promptTemplates.promptType, promptType), eq(promptTemplates.agentType, agentType), eq(promptTemplates.isActive, true)))
    .get();
}

/** size + 1 templates after `cursor`, newest first by (createdAt, id). */
export function listPromptTemplates(db: Db, size: number, cursor: PromptTemplateRow | null): PromptTemplateRow[] {
  return db
    .select()
    .from(promptTemplates)
    .where(cursor ? sql`(${promptTemplates.createdAt}, ${promptTemplates.id}) < (${cursor.createdAt}, ${cursor.id})` : undefined)
    .orderBy(desc(promptTemplates.createdAt), desc(promptTemplates.id))
    .limit(size + 1)
    .all();
}

function deactivateOthers(tx: Pick<Db, 'update'>, promptType: PromptType, agentType: AgentType, keepId: number | null, nowMs: number): void {
  tx.update(promptTemplates)
    .set({ isActive: false, updatedAt: nowMs })
    .where(
      and(
        eq(promptTemplates.promptType, promptType),
        eq(promptTemplates.agentType, agentType),
        eq(promptTemplates.isActive, true),
        keepId === null ? undefined : ne(promptTemplates.id, keepId),
      ),
    )
    .run();
}

export function createActivePromptTemplate(
  db: Db,
  values: { promptType: PromptType; agentType: AgentType; prompt: string; description: string | null },
  nowMs: number,
): PromptTemplateRow {
  return db.transaction((tx) => {
    deactivateOthers(tx, values.promptType, values.agentType, null, nowMs);
    return tx
      .insert(promptTemplates)
      .values({ ...values, isActive: true, createdAt: nowMs, updatedAt: nowMs })
      .returning()
      .get();
  });
}

export function updatePromptTemplate(
  db: Db,
  current: PromptTemplateRow,
  changes: { prompt?: string; isActive?: boolean; description?: string | null },
  nowMs: number,
): PromptTemplateRow {
  return db.transaction((tx) => {
    if (changes.isActive === true) deactivateOthers(tx, current.promptType, current.agentType, current.id, nowMs);
    return tx
      .update(promptTemplates)
      .set({ ...changes, updatedAt: nowMs })
      .where(eq(promptTemplates.id, current.id))
      .returning()
      .get();
  });
}

export function deletePromptTemplate(db: Db, id: number): void {
  db.delete(promptTemplates).where(eq(promptTemplates.id, id)).run();
}
