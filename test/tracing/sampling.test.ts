// OTEL_TRACES_SAMPLER_ARG: the share of traces begun here that are recorded. At 0 a request that
// brings no trace of its own makes no span (and its log line no trace id), while a caller's sampled
// traceparent is still followed and an unsampled one is not.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracing, type Tracing } from '../../src/tracing.js';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlpReceiver.js';
import { startTestApp, testConfig, type TestApp } from '../support/testApp.js';

let receiver: OtlpReceiver;
let tracing: Tracing;
let app: TestApp;
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_SAMPLER_ARG: '0' };
  tracing = startTracing(testConfig(env).tracing!);
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) });
  app = await startTestApp(env, { logger });
});

afterAll(async () => {
  await app?.close();
  await tracing?.shutdown(5000);
  await receiver?.close();
});

const traceId = '0af7651916cd43dd8448eb211c80319c';
const callerSpanId = 'b7ad6b7169203331';

async function listRegions(requestId: string, traceparent?: string): Promise<void> {
  const res = await app.request('GET', '/api/v1/regions', { headers: { 'x-request-id': requestId, ...(traceparent ? { traceparent } : {}) } });
  expect(res.status).toBe(200);
  await tracing.flush();
}

describe('OTEL_TRACES_SAMPLER_ARG=0', () => {
  it('a request with no traceparent: no span, no trace id in its log line', async () => {
    await listRegions('unsampled-root-1');
    expect(receiver.spans).toEqual([]);
    const line = logLines.find((l) => l.requestId === 'unsampled-root-1' && l.msg === 'request');
    expect(line).toBeDefined();
    expect(line).not.toHaveProperty('trace_id');
  });

  it("a caller's sampled traceparent is followed; an unsampled one is not", async () => {
    await listRegions('caller-unsampled-1', `00-${traceId}-${callerSpanId}-00`);
    expect(receiver.spans).toEqual([]);
    await listRegions('caller-sampled-1', `00-${traceId}-${callerSpanId}-01`);
    expect(receiver.spans.map((s) => [s.name, s.traceId, s.parentSpanId])).toEqual([['listRegions', traceId, callerSpanId]]);
  });
});
