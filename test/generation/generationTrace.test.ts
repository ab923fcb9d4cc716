// One trace from the start request to the run, across instances: on one PostgreSQL database,
// instance A (GENERATION_CONCURRENCY=0: it runs nothing) takes startTripPlanGeneration and B runs
// the generation. The traceparent stored with the job makes B's generation span a child of A's
// request span, with B's day spans and planner spans under it, all in one trace; B's log lines of
// the run carry that trace id. A run given back by a stopping instance and resumed by another
// continues the same trace. Spans go to an OTLP/HTTP receiver inside the test.
import { beforeEach, expect, it, vi } from 'vitest';
import type { AppPorts } from '../../src/composition/services.js';
import type { ReceivedSpan } from '../support/otlpReceiver.js';
import { heldPlanner } from '../support/plannerStubs.js';
import { appsOnFreshPostgres } from '../support/appsOnFreshPostgres.js';
import { describeOnPostgres } from '../support/postgres.js';
import { busanTrip, testConfig } from '../support/testApp.js';
import { capturedLog, tracingToReceiver } from '../support/tracingToReceiver.js';

const POLL = { timeout: 20_000, interval: 20 };

const traces = tracingToReceiver();
const onFreshDatabase = appsOnFreshPostgres();

/** spans received before the test began (each test has a fresh database: plan ids repeat) */
let earlier = 0;
beforeEach(async () => {
  await traces.tracing.flush();
  earlier = traces.receiver.spans.length;
});

async function instance(env: Record<string, string> = {}, ports: Partial<AppPorts> = {}) {
  const { logger, lines } = capturedLog();
  const config = testConfig({ ...traces.env, GENERATION_POLL_MS: '50', ...env });
  return { ...(await onFreshDatabase(config, { logger, ...ports })), lines };
}

type Instance = Awaited<ReturnType<typeof instance>>;

/** Signs in on `on`, creates a plan and starts its generation there; the plan's id. */
async function startedOn(on: Instance, email: string): Promise<{ tripPlanId: number; token: string }> {
  const token = (await on.call<{ accessToken: string }>('POST', '/api/v1/auth/dev-login', undefined, { email })).data.accessToken;
  const { tripPlanId } = (await on.call<{ tripPlanId: number }>('POST', '/api/v1/trips', token, busanTrip)).data;
  expect((await on.call('POST', `/api/v1/trips/${tripPlanId}`, token)).status).toBe(200);
  return { tripPlanId, token };
}

async function completed(on: Instance, plan: { tripPlanId: number; token: string }): Promise<void> {
  await vi.waitFor(
    async () =>
      expect((await on.call<{ generationStatus: string }>('GET', `/api/v1/trips/${plan.tripPlanId}`, plan.token)).data.generationStatus).toBe('COMPLETED'),
    POLL,
  );
}

/** The start request's server span of `tripPlanId`, and every span of its trace (after a flush). */
async function traceOfStart(tripPlanId: number): Promise<{ request: ReceivedSpan; trace: ReceivedSpan[] }> {
  const spans = (await traces.received()).slice(earlier);
  const starts = spans.filter((s) => s.name === 'startTripPlanGeneration' && s.attributes['url.path'] === `/api/v1/trips/${tripPlanId}`);
  expect(starts).toHaveLength(1);
  const request = starts[0]!;
  return { request, trace: spans.filter((s) => s.traceId === request.traceId) };
}

const named = (spans: ReceivedSpan[], name: string) => spans.filter((s) => s.name === name);

describeOnPostgres('one trace from the start request on A to the run on B', () => {
  it('request span on A; generation span on B its child; day spans and planner calls under the generation', async () => {
    const a = await instance({ GENERATION_CONCURRENCY: '0' });
    const b = await instance();
    const plan = await startedOn(a, 'traced@example.com');
    await completed(a, plan);
    await b.app.worker.idle();

    const { request, trace } = await traceOfStart(plan.tripPlanId);
    expect(request).toMatchObject({ kind: 2, parentSpanId: '', attributes: { 'http.route': '/api/v1/trips/{tripPlanId}', 'http.response.status_code': 200 } });

    const [generation, ...more] = named(trace, 'generation');
    expect(more).toHaveLength(0);
    expect(generation).toMatchObject({
      parentSpanId: request.spanId,
      attributes: {
        'trip.plan_id': plan.tripPlanId,
        'trip.generation.owner': b.app.worker.owner,
        'trip.generation.attempt': 1,
        'trip.generation.outcome': 'completed',
      },
    });

    const days = named(trace, 'generation.day');
    expect(days.map((d) => d.attributes['trip.day_number']).sort()).toEqual([1, 2, 3]);
    for (const day of days) expect(day.parentSpanId).toBe(generation!.spanId);

    const [planCall, ...morePlanCalls] = named(trace, 'planner.plan');
    expect(morePlanCalls).toHaveLength(0);
    expect(planCall).toMatchObject({ parentSpanId: generation!.spanId, attributes: { 'trip.planner': 'offline', 'trip.planner.days': 3 } });
    const summaries = named(trace, 'planner.summarize');
    expect(summaries).toHaveLength(3);
    for (const summary of summaries) {
      const day = days.find((d) => d.spanId === summary.parentSpanId);
      expect(day?.attributes['trip.day_number']).toBe(summary.attributes['trip.day_number']);
    }

    // Log lines: A's request line and B's lines of the run carry the one trace id.
    const requestLine = a.lines.find((l) => l.msg === 'request' && l.operationId === 'startTripPlanGeneration');
    expect(requestLine).toMatchObject({ trace_id: request.traceId, span_id: request.spanId });
    const runLines = b.lines.filter((l) => l.tripPlanId === plan.tripPlanId);
    expect(runLines.map((l) => l.msg)).toContain('generation completed');
    for (const line of runLines) expect(line).toMatchObject({ trace_id: request.traceId, span_id: generation!.spanId });
  });

  it('a run given back by a stopping instance (GENERATION_TAKEOVER=resume) and resumed on another continues the same trace', async () => {
    const resume = { GENERATION_TAKEOVER: 'resume' };
    const a = await instance({ ...resume, GENERATION_CONCURRENCY: '0' });
    const b = await instance(resume, { planner: heldPlanner() });
    const plan = await startedOn(a, 'resumed@example.com');
    await vi.waitFor(async () => expect((await b.app.worker.stats()).running).toBe(1), POLL);
    await b.app.worker.stop();

    const c = await instance(resume);
    await completed(a, plan);
    await c.app.worker.idle();

    const { request, trace } = await traceOfStart(plan.tripPlanId);
    const generations = named(trace, 'generation').sort(
      (x, y) => Number(x.attributes['trip.generation.attempt']) - Number(y.attributes['trip.generation.attempt']),
    );
    expect(generations.map((g) => [g.parentSpanId, g.attributes['trip.generation.owner'], g.attributes['trip.generation.outcome']])).toEqual([
      [request.spanId, b.app.worker.owner, 'released'],
      [request.spanId, c.app.worker.owner, 'completed'],
    ]);
    expect(named(trace, 'generation.day').map((d) => d.parentSpanId)).toEqual(Array(3).fill(generations[1]!.spanId));
  });
});
