// Two instances of the service in one process on one PostgreSQL database (each its own app, pool and
// runner, sharing only the database and the JWT secret), over HTTP: concurrent starts spread over
// both have one winner and the plan runs once; a cancel made on the instance that does not run the
// job stops the run on the other at its next heartbeat.
import { expect, it, vi } from 'vitest';
import type { AppPorts } from '../../src/composition/services.js';
import { appsOnFreshPostgres } from '../support/appsOnFreshPostgres.js';
import { heldPlanner } from '../support/plannerStubs.js';
import { describeOnPostgres } from '../support/postgres.js';
import { busanTrip, testConfig } from '../support/testApp.js';

const POLL = { timeout: 20_000, interval: 20 };
const QUICK_LEASES = { GENERATION_LEASE_MS: '2000', GENERATION_HEARTBEAT_MS: '100', GENERATION_SWEEP_MS: '100', GENERATION_POLL_MS: '50' };

const onFreshDatabase = appsOnFreshPostgres();
const instance = (env: Record<string, string> = {}, ports: Partial<AppPorts> = {}) => onFreshDatabase(testConfig({ ...QUICK_LEASES, ...env }), ports);

describeOnPostgres('two instances on one PostgreSQL database', () => {
  it('20 concurrent starts over both instances: one 200, nineteen 409 TRIP106; the plan runs once, each day saved once', async () => {
    const a = await instance();
    const b = await instance();
    const token = (await a.call<{ accessToken: string }>('POST', '/api/v1/auth/dev-login', undefined, { email: 'race@example.com' })).data.accessToken;
    const plan = (await b.call<{ tripPlanId: number }>('POST', '/api/v1/trips', token, busanTrip)).data;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).call('POST', `/api/v1/trips/${plan.tripPlanId}`, token)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    const refused = answers.filter((r) => r.status === 409).map((r) => r.data as { code: string; message: string });
    expect(refused).toHaveLength(19);
    for (const error of refused)
      expect(error).toMatchObject({ code: 'TRIP106', message: expect.stringMatching(/while it is (generating|completed)/) as string });

    await vi.waitFor(
      async () =>
        expect((await a.call<{ generationStatus: string }>('GET', `/api/v1/trips/${plan.tripPlanId}`, token)).data.generationStatus).toBe('COMPLETED'),
      POLL,
    );
    const days = (await b.call<{ dayNumber: number }[]>('GET', `/api/v1/trips/daily-plans/${plan.tripPlanId}`, token)).data;
    expect(days.map((d) => d.dayNumber)).toEqual([1, 2, 3]);
    const [sa, sb] = await Promise.all([a.app.worker.stats(), b.app.worker.stats()]);
    expect(sa.completed + sb.completed).toBe(1);
  });

  it('a cancel on the instance that does not run the job: the runner on the other one stops writing at its next heartbeat', async () => {
    const runs = await instance({}, { planner: heldPlanner() });
    const other = await instance({ GENERATION_CONCURRENCY: '0' });
    const token = (await other.call<{ accessToken: string }>('POST', '/api/v1/auth/dev-login', undefined, { email: 'cancel@example.com' })).data.accessToken;
    const plan = (await other.call<{ tripPlanId: number }>('POST', '/api/v1/trips', token, busanTrip)).data;
    expect((await other.call('POST', `/api/v1/trips/${plan.tripPlanId}`, token)).status).toBe(200);
    await vi.waitFor(async () => expect((await runs.app.worker.stats()).running).toBe(1), POLL);

    expect((await other.call('POST', `/api/v1/trips/${plan.tripPlanId}/cancel`, token)).status).toBe(200);
    await vi.waitFor(async () => expect(await runs.app.worker.stats()).toMatchObject({ running: 0, lost: 1 }), POLL);
    expect(await other.app.worker.stats()).toMatchObject({ cancelled: 1 });
    expect((await runs.call<{ generationStatus: string }>('GET', `/api/v1/trips/${plan.tripPlanId}`, token)).data.generationStatus).toBe('CANCELLED');
  });
});
