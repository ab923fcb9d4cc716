// Prompt templates of the AI planner. At most one active per (promptType, agentType): activating a
// template deactivates the other in the same transaction (a partial unique index backs this up).
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { DatabasePort, PgQueries } from '../db/databasePort.js';
import type { promptTemplates } from '../db/schema.pg.js';

export type PromptTemplateRow = typeof promptTemplates.$inferSelect;
type PromptType = PromptTemplateRow['promptType'];
type AgentType = PromptTemplateRow['agentType'];

export function findPromptTemplate(db: DatabasePort, id: number): Promise<PromptTemplateRow | undefined> {
  const { promptTemplates } = db.t;
  return db.run(async (q) => (await q.select().from(promptTemplates).where(eq(promptTemplates.id, id)))[0]);
}

export function findActivePromptTemplate(db: DatabasePort, promptType: PromptType, agentType: AgentType): Promise<PromptTemplateRow | undefined> {
  const { promptTemplates } = db.t;
  return db.run(
    async (q) =>
      (
        await q
          .select()
          .from(promptTemplates)
          .where(and(eq(promptTemplates.promptType, promptType), eq(promptTemplates.agentType, agentType), eq(promptTemplates.isActive, true)))
      )[0],
  );
}

/** size + 1 templates after `cursor`, newest first by (createdAt, id). */
export function listPromptTemplates(db: DatabasePort, size: number, cursor: PromptTemplateRow | null): Promise<PromptTemplateRow[]> {
  const { promptTemplates } = db.t;
  return db.run((q) =>
    q
      .select()
      .from(promptTemplates)
      .where(cursor ? sql`(${promptTemplates.createdAt}, ${promptTemplates.id}) < (${cursor.createdAt}, ${cursor.id})` : undefined)
      .orderBy(desc(promptTemplates.createdAt), desc(promptTemplates.id))
      .limit(size + 1)
      .execute(),
  );
}

async function deactivateOthers(
  db: DatabasePort,
  q: PgQueries,
  promptType: PromptType,
  agentType: AgentType,
  keepId: number | null,
  nowMs: number,
): Promise<void> {
  const { promptTemplates } = db.t;
  await q
    .update(promptTemplates)
    .set({ isActive: false, updatedAt: nowMs })
    .where(
      and(
        eq(promptTemplates.promptType, promptType),
        eq(promptTemplates.agentType, agentType),
        eq(promptTemplates.isActive, true),
        keepId === null ? undefined : ne(promptTemplates.id, keepId),
      ),
    );
}

export function createActivePromptTemplate(
  db: DatabasePort,
  values: { promptType: PromptType; agentType: AgentType; prompt: string; description: string | null },
  nowMs: number,
): Promise<PromptTemplateRow> {
  const { promptTemplates } = db.t;
  return db.tx(async (q) => {
    await deactivateOthers(db, q, values.promptType, values.agentType, null, nowMs);
    const [row] = await q
      .insert(promptTemplates)
      .values({ ...values, isActive: true, createdAt: nowMs, updatedAt: nowMs })
      .returning();
    return row!;
  });
}

export function updatePromptTemplate(
  db: DatabasePort,
  current: PromptTemplateRow,
  changes: { prompt?: string; isActive?: boolean; description?: string | null },
  nowMs: number,
): Promise<PromptTemplateRow> {
  const { promptTemplates } = db.t;
  return db.tx(async (q) => {
    if (changes.isActive === true) await deactivateOthers(db, q, current.promptType, current.agentType, current.id, nowMs);
    const [row] = await q
      .update(promptTemplates)
      .set({ ...changes, updatedAt: nowMs })
      .where(eq(promptTemplates.id, current.id))
      .returning();
    return row!;
  });
}

export function deletePromptTemplate(db: DatabasePort, id: number): Promise<void> {
  const { promptTemplates } = db.t;
  return db.run(async (q) => void (await q.delete(promptTemplates).where(eq(promptTemplates.id, id))));
}
