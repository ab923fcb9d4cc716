// Handlers of the admin prompt-template operations (the router enforces x-required-role: ADMIN).
import type { Handlers } from '../../generated/operations.js';
import type { components } from '../../generated/openapi.js';
import { toCursorPage } from '../db/cursorPage.js';
import { AppError, invalidField } from '../kernel/appError.js';
import { operationPath } from '../kernel/operationPath.js';
import type { DatabasePort } from '../db/databasePort.js';
import type { RequestContext } from '../kernel/requestContext.js';
import {
  createActivePromptTemplate,
  deletePromptTemplate,
  findPromptTemplate,
  listPromptTemplates,
  updatePromptTemplate,
  type PromptTemplateRow,
} from './promptTemplateRepository.js';

function toPromptTemplateResponse(row: PromptTemplateRow): components['schemas']['AiPromptTemplateResponse'] {
  return {
    id: row.id,
    promptType: row.promptType,
    agentType: row.agentType,
    prompt: row.prompt,
    isActive: row.isActive,
    description: row.description,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

async function existing(db: DatabasePort, id: number): Promise<PromptTemplateRow> {
  const row = await findPromptTemplate(db, id);
  if (!row) throw new AppError('AI005');
  return row;
}

type PromptHandlers = Pick<
  Handlers<RequestContext>,
  'listPromptTemplates' | 'getPromptTemplate' | 'createPromptTemplate' | 'updatePromptTemplate' | 'deletePromptTemplate'
>;

export function createPromptHandlers({ db, clock }: { db: DatabasePort; clock: () => number }): PromptHandlers {
  return {
    async listPromptTemplates({ query }) {
      let cursor: PromptTemplateRow | null = null;
      if (query.cursor !== undefined) {
        cursor = (await findPromptTemplate(db, query.cursor)) ?? null;
        if (!cursor) throw invalidField('query.cursor', query.cursor, 'is not the id of a prompt template');
      }
      const rows = await listPromptTemplates(db, query.size, cursor);
      return { status: 200, body: toCursorPage(rows, query.size, toPromptTemplateResponse) };
    },

    getPromptTemplate: async ({ path }) => ({ status: 200, body: toPromptTemplateResponse(await existing(db, path.promptId)) }),

    async createPromptTemplate({ body }) {
      const row = await createActivePromptTemplate(
        db,
        { promptType: body.promptType, agentType: body.agentType, prompt: body.prompt, description: body.description ?? null },
        clock(),
      );
      return { status: 201, body: toPromptTemplateResponse(row), headers: { Location: operationPath('getPromptTemplate', { promptId: row.id }) } };
    },

    async updatePromptTemplate({ path, body }) {
      const row = await updatePromptTemplate(db, await existing(db, path.promptId), body, clock());
      return { status: 200, body: toPromptTemplateResponse(row) };
    },

    async deletePromptTemplate({ path }) {
      await deletePromptTemplate(db, (await existing(db, path.promptId)).id);
      return { status: 204 };
    },
  };
}
