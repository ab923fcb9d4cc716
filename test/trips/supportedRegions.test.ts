// A plan's region must be one the configured planner supports: listRegions (public) lists them with
// their aliases, and creating a plan for any other region is 400 TRIP107 at once, instead of a 201
// followed by a generation that fails with an error logged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, errorCodeOf, errorOf } from '../support/responseBody.js';
import { busanTrip, startTestApp, type TestApp } from '../support/testApp.js';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp();
  token = (await t.signIn('regions@example.com')).accessToken;
});
afterAll(() => t.close());

const create = (region: string) => t.request('POST', '/api/v1/trips', { token, body: { ...busanTrip, region } });

describe('supported regions', () => {
  it('listRegions is public and lists the catalogue regions with their aliases; no planner accepts any region', async () => {
    const listed = bodyOf(await t.request('GET', '/api/v1/regions'), 'listRegions', 200).data;
    expect(listed.acceptsAnyRegion).toBe(false);
    expect(listed.regions.map((r) => r.name)).toEqual(['Busan', 'Gangneung', 'Gyeongju', 'Jeju', 'Jeonju', 'Seoul']);
    expect(listed.regions[0]).toEqual({ name: 'Busan', aliases: ['부산', '부산시', '부산광역시'] });
  });

  it('accepts every listed name and alias, and the documented variations of them', async () => {
    const { regions } = bodyOf(await t.request('GET', '/api/v1/regions'), 'listRegions', 200).data;
    for (const name of regions.flatMap((r) => [r.name, ...r.aliases])) expect((await create(name)).status, name).toBe(201);
    for (const variation of ['busan', ' SEOUL ', 'Busan Metropolitan City', '부산 광역시', 'jeju-do'])
      expect((await create(variation)).status, variation).toBe(201);
  });

  it.each(['Tokyo', 'Busanx', 'Seoul Tokyo', '도'])('refuses %s with 400 TRIP107', async (region) => {
    const res = await create(region);
    expect([res.status, errorCodeOf(res), errorOf(res).errors]).toEqual([400, 'TRIP107', null]);
    expect(errorOf(res).message).toContain('GET /api/v1/regions');
  });

  it('the PLANNER=openai configuration supports the same regions (it plans from the catalogue too)', async () => {
    const openai = await startTestApp({ PLANNER: 'openai', OPENAI_API_KEY: 'sk-test-not-used' });
    try {
      const offline = bodyOf(await t.request('GET', '/api/v1/regions'), 'listRegions', 200).data;
      expect(bodyOf(await openai.request('GET', '/api/v1/regions'), 'listRegions', 200).data).toEqual(offline);
    } finally {
      await openai.close();
    }
  });
});
