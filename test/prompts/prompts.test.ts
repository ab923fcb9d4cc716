// Admin prompt templates: at most one active per (promptType, agentType); paging; ADMIN only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf } from '../support/responseBody.js';
import { startTestApp, type TestApp } from '../support/testApp.js';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.signInAdmin('admin@example.com')).accessToken;
});
afterAll(() => t.close());

const create = async (body: Record<string, unknown>) =>
  bodyOf(await t.request('POST', '/api/v1/admin/prompts', { token: admin, body }), 'createPromptTemplate', 201).data;
const get = async (id: number) => bodyOf(await t.request('GET', `/api/v1/admin/prompts/${id}`, { token: admin }), 'getPromptTemplate', 200).data;
const update = async (id: number, body: Record<string, unknown>) =>
  bodyOf(await t.request('PATCH', `/api/v1/admin/prompts/${id}`, { token: admin, body }), 'updatePromptTemplate', 200).data;
const list = async (query: Record<string, string | number>) =>
  bodyOf(await t.request('GET', '/api/v1/admin/prompts', { token: admin, query }), 'listPromptTemplates', 200).data;

describe('prompt templates', () => {
  it('keeps at most one active template per promptType and agentType', async () => {
    const first = await create({ promptType: 'SYSTEM', agentType: 'TRIP_AGENT', prompt: 'v1' });
    const other = await create({ promptType: 'SYSTEM', agentType: 'CHAT_AGENT', prompt: 'chat' });
    const second = await create({ promptType: 'SYSTEM', agentType: 'TRIP_AGENT', prompt: 'v2', description: 'newer' });
    expect([(await get(first.id)).isActive, (await get(second.id)).isActive, (await get(other.id)).isActive]).toEqual([false, true, true]);
    expect((await update(first.id, { isActive: true })).isActive).toBe(true);
    expect((await get(second.id)).isActive).toBe(false);
    expect((await get(other.id)).isActive).toBe(true);
  });

  it('updates the prompt and clears the description', async () => {
    const template = await create({ promptType: 'USER', agentType: 'PLACE_SUMMARY_AGENT', prompt: 'old', description: 'd' });
    t.advance(1000);
    const updated = await update(template.id, { prompt: 'new', description: null });
    expect(updated).toMatchObject({ prompt: 'new', description: null, isActive: true });
    expect(updated.updatedAt > updated.createdAt).toBe(true);
  });

  it('pages newest first and deletes', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push((await create({ promptType: 'USER', agentType: 'CHAT_AGENT', prompt: `p${i}` })).id);
      t.advance(10);
    }
    const page = await list({ size: 2 });
    expect(page.content.map((p) => p.id)).toEqual([ids[3], ids[2]]);
    const next = await list({ size: 2, cursor: String(page.nextCursor) });
    expect(next.content.map((p) => p.id)).toEqual([ids[1], ids[0]]);
    expect((await t.request('DELETE', `/api/v1/admin/prompts/${ids[0]}`, { token: admin })).status).toBe(204);
    expect(bodyOf(await t.request('GET', `/api/v1/admin/prompts/${ids[0]}`, { token: admin }), 'getPromptTemplate', 404).data.code).toBe('AI005');
  });
});
