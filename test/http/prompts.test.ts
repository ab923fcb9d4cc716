// Admin prompt templates: at most one active per (promptType, agentType); paging; ADMIN only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/testApp.js';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.signInAdmin('admin@example.com')).accessToken;
});
afterAll(() => t.close());

const create = async (body: Record<string, unknown>) => (await t.request('POST', '/api/v1/admin/prompts', { token: admin, body })).body.data;
const get = async (id: number) => (await t.request('GET', `/api/v1/admin/prompts/${id}`, { token: admin })).body.data;

describe('prompt templates', () => {
  it('keeps at most one active template per promptType and agentType', async () => {
    const first = await create({ promptType: 'SYSTEM', agentType: 'TRIP_AGENT', prompt: 'v1' });
    const other = await create({ promptType: 'SYSTEM', agentType: 'CHAT_AGENT', prompt: 'chat' });
    const second = await create({ promptType: 'SYSTEM', agentType: 'TRIP_AGENT', prompt: 'v2', description: 'newer' });
    expect([(await get(first.id)).isActive, (await get(second.id)).isActive, (await get(other.id)).isActive]).toEqual([false, true, true]);
    const reactivated = await t.request('PATCH', `/api/v1/admin/prompts/${first.id}`, { token: admin, body: { isActive: true } });
    expect(reactivated.body.data.isActive).toBe(true);
    expect((await get(second.id)).isActive).toBe(false);
    expect((await get(other.id)).isActive).toBe(true);
  });

  it('updates the prompt and clears the description', async () => {
    const template = await create({ promptType: 'USER', agentType: 'PLACE_SUMMARY_AGENT', prompt: 'old', description: 'd' });
    t.advance(1000);
    const res = await t.request('PATCH', `/api/v1/admin/prompts/${template.id}`, { token: admin, body: { prompt: 'new', description: null } });
    expect(res.body.data).toMatchObject({ prompt: 'new', description: null, isActive: true });
    expect(res.body.data.updatedAt > res.body.data.createdAt).toBe(true);
  });

  it('pages newest first and deletes', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push((await create({ promptType: 'USER', agentType: 'CHAT_AGENT', prompt: `p${i}` })).id);
      t.advance(10);
    }
    const page = (await t.request('GET', '/api/v1/admin/prompts', { token: admin, query: { size: 2 } })).body.data;
    expect(page.content.map((p: { id: number }) => p.id)).toEqual([ids[3], ids[2]]);
    const next = (await t.request('GET', '/api/v1/admin/prompts', { token: admin, query: { size: 2, cursor: page.nextCursor } })).body.data;
    expect(next.content.map((p: { id: number }) => p.id)).toEqual([ids[1], ids[0]]);
    expect((await t.request('DELETE', `/api/v1/admin/prompts/${ids[0]}`, { token: admin })).status).toBe(204);
    expect((await t.request('GET', `/api/v1/admin/prompts/${ids[0]}`, { token: admin })).body.data.code).toBe('AI005');
  });
});
