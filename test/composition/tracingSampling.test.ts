// OTEL_TRACES_SAMPLER_ARG: the share of traces begun here that are recorded. At 0 a request that
// brings no trace of its own makes no span (and its log line no trace id), while a caller's sampled
// traceparent is still followed and an unsampled one is not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/testApp.js';
import { capturedLog, tracingToReceiver } from '../support/tracingToReceiver.js';

const traces = tracingToReceiver({ OTEL_TRACES_SAMPLER_ARG: '0' });
const { logger, lines: logLines } = capturedLog();
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp(traces.env, { logger });
});

afterAll(async () => {
  await app?.close();
});

const traceId = '0af7651916cd43dd8448eb211c80319c';
const callerSpanId = 'b7ad6b7169203331';

async function listRegions(requestId: string, traceparent?: string): Promise<void> {
  const res = await app.request('GET', '/api/v1/regions', { headers: { 'x-request-id': requestId, ...(traceparent ? { traceparent } : {}) } });
  expect(res.status).toBe(200);
  await traces.tracing.flush();
}

describe('OTEL_TRACES_SAMPLER_ARG=0', () => {
  it('a request with no traceparent: no span, no trace id in its log line', async () => {
    await listRegions('unsampled-root-1');
    expect(traces.receiver.spans).toEqual([]);
    const line = logLines.find((l) => l.requestId === 'unsampled-root-1' && l.msg === 'request');
    expect(line).toBeDefined();
    expect(line).not.toHaveProperty('trace_id');
  });

  it("a caller's sampled traceparent is followed; an unsampled one is not", async () => {
    await listRegions('caller-unsampled-1', `00-${traceId}-${callerSpanId}-00`);
    expect(traces.receiver.spans).toEqual([]);
    await listRegions('caller-sampled-1', `00-${traceId}-${callerSpanId}-01`);
    expect(traces.receiver.spans.map((s) => [s.name, s.traceId, s.parentSpanId])).toEqual([['listRegions', traceId, callerSpanId]]);
  });
});
