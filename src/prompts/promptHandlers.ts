// Handlers of the admin prompt-template operations (the router enforces x-required-role: ADMIN).
import type { Handlers } from '../../generated/operations.js';
import type { components } from '../../generated/openapi.js';
import { toCursorPage } from '../db/cursorPage.js';
import { AppError, invalidField } from '../http/appError.js';
import { operationPath } from '../http/operationPath.js';
import type { Db } from '../db/database.js';
import type { RequestContext } from '../http/requestContext.js';
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

function existing(db: Db, id: number): PromptTemplateRow {
  const row = findPromptTemplate(db, id);
  if (!row) throw new AppError('AI005');
  return row;
}

type PromptHandlers = Pick<
  Handlers<RequestContext>,
  'listPromptTemplates' | 'getPromptTemplate' | 'createPromptTemplate' | 'updatePromptTemplate' | 'deletePromptTemplate'
>;

export function createPromptHandlers({ db, clock }: { db: Db; clock: () => number }): PromptHandlers {
  return {
    listPromptTemplates({ query }) {
      let cursor: PromptTemplateRow | null = null;
      if (query.cursor !== undefined) {
        cursor = findPromptTemplate(db, query.cursor) ?? null;
        if (!cursor) throw invalidField('query.cursor', query.cursor, 'is not the id of a prompt template');
      }
      const rows = listPromptTemplates(db, query.size, cursor);
      return { status: 200, body: toCursorPage(rows, query.size, toPromptTemplateResponse) };
    },

    getPromptTemplate: ({ path }) => ({ status: 200, body: toPromptTemplateResponse(existing(db, path.promptId)) }),

    createPromptTemplate({ body }) {
      const row = createActivePromptTemplate(
        db,
        { promptType: body.promptType, agentType: body.agentType, prompt: body.prompt, description: body.description ?? null },
        clock(),
      );
      return { status: 201, body: toPromptTemplateResponse(row), headers: { Location: operationPath('getPromptTemplate', { promptId: row.id }) } };
    },

    updatePromptTemplate({ path, body }) {
      const row = updatePromptTemplate(db, existing(db, path.promptId), body, clock());
      return { status: 200, body: toPromptTemplateResponse(row) };
    },

    deletePromptTemplate({ path }) {
      deletePromptTemplate(db, existing(db, path.promptId).id);
      return { status: 204 };
    },
  };
}
