// A planner's own log lines belong to the generation's trace too: the OpenAI planner's warning
// about a failed request, made inside a run (an active span) through the traced Planner port,
// carries that trace's id and the planner call's span id. Real `openai` SDK against a local fake
// server, spans to an OTLP receiver inside the test.
import { context, trace } from '@opentelemetry/api';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { syncCatalogue } from '../../src/catalogue/placeRepository.js';
import type { DatabasePort } from '../../src/db/databasePort.js';
import { openSqliteDatabasePort } from '../../src/composition/openDatabase.js';
import { createOpenAiClient } from '../../src/generation/openai/openaiClient.js';
import { createOpenAiPlanner } from '../../src/generation/openai/openaiPlanner.js';
import { tracedPlanner } from '../../src/generation/tracedPlanner.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../support/fakeOpenAiServer.js';
import { capturedLog, tracingToReceiver } from '../support/tracingToReceiver.js';

const traces = tracingToReceiver();
let openAi: FakeOpenAiServer;
let database: DatabasePort;

beforeAll(async () => {
  openAi = await startFakeOpenAiServer();
  database = openSqliteDatabasePort(':memory:');
  await syncCatalogue(database);
});

afterAll(async () => {
  await database?.close();
  await openAi?.close();
});

it("the OpenAI planner's warning inside a run carries the run's trace id and the planner call's span id", async () => {
  const { logger: log, lines } = capturedLog();
  const client = createOpenAiClient({ apiKey: null, baseUrl: openAi.baseUrl, model: 'fake-model', maxAttempts: 1 });
  const planner = tracedPlanner(createOpenAiPlanner({ db: database, client, model: 'fake-model', maxAttempts: 1, log, retryDelayMs: 0 }));
  openAi.reply({ status: 500 });
  const request = {
    tripPlanId: 5,
    memberId: 1,
    region: 'Busan',
    startDate: '2026-05-01',
    duration: 1,
    themes: ['FAMOUS_SPOT' as const],
    peopleCount: 2,
    transportation: 'CAR' as const,
  };

  const run = trace.getTracer('test').startSpan('generation');
  await context.with(trace.setSpan(context.active(), run), async () => {
    await expect(async () => {
      for await (const _day of planner.plan(request, new AbortController().signal));
    }).rejects.toThrow();
  });
  run.end();
  await traces.tracing.flush();

  const planCall = traces.receiver.spans.find((s) => s.name === 'planner.plan');
  expect(planCall).toMatchObject({ traceId: run.spanContext().traceId, parentSpanId: run.spanContext().spanId, statusCode: 2 });
  const warning = lines.find((l) => l.msg === 'openai day plan request failed');
  expect(warning).toMatchObject({ trace_id: run.spanContext().traceId, span_id: planCall!.spanId });
});
