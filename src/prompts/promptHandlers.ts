// Handlers of the admin prompt-template operations (the router enforces x-required-role: ADMIN).
import type { Handlers } from '../../generated/operations.js';
import type { components } from '../../generated/openapi.js';
import { toCursorPage } from '../db/cursorPage.js';
import { AppError, invalidField } from '../http/appError.js';
import { operationPath } from '../http/operationPath.js';
import type { RequestContext } from '../services.js';
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

function existing(ctx: RequestContext, id: number): PromptTemplateRow {
  const row = findPromptTemplate(ctx.services.db, id);
  if (!row) throw new AppError('AI005');
  return row;
}

export const promptHandlers: Pick<
  Handlers<RequestContext>,
  'listPromptTemplates' | 'getPromptTemplate' | 'createPromptTemplate' | 'updatePromptTemplate' | 'deletePromptTemplate'
> = {
  listPromptTemplates({ query }, ctx) {
    let cursor: PromptTemplateRow | null = null;
    if (query.cursor !== undefined) {
      cursor = findPromptTemplate(ctx.services.db, query.cursor) ?? null;
      if (!cursor) throw invalidField('query.cursor', query.cursor, 'is not the id of a prompt template');
    }
    const rows = listPromptTemplates(ctx.services.db, query.size, cursor);
    return { status: 200, body: toCursorPage(rows, query.size, toPromptTemplateResponse) };
  },

  getPromptTemplate: ({ path }, ctx) => ({ status: 200, body: toPromptTemplateResponse(existing(ctx, path.promptId)) }),

  createPromptTemplate({ body }, ctx) {
    const row = createActivePromptTemplate(
      ctx.services.db,
      { promptType: body.promptType, agentType: body.agentType, prompt: body.prompt, description: body.description ?? null },
      ctx.services.clock(),
    );
    return { status: 201, body: toPromptTemplateResponse(row), headers: { Location: operationPath('getPromptTemplate', { promptId: row.id }) } };
  },

  updatePromptTemplate({ path, body }, ctx) {
    const row = updatePromptTemplate(ctx.services.db, existing(ctx, path.promptId), body, ctx.services.clock());
    return { status: 200, body: toPromptTemplateResponse(row) };
  },

  deletePromptTemplate({ path }, ctx) {
    deletePromptTemplate(ctx.services.db, existing(ctx, path.promptId).id);
    return { status: 204 };
  },
};
