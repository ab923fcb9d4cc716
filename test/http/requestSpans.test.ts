// With OTEL_EXPORTER_OTLP_ENDPOINT set, every HTTP request is one server span, named by the
// operationId it reached, with the semantic-convention attributes and never its query string or
// token; a caller's traceparent makes it a child of the caller's span; the request's log lines
// carry its trace and span id. Spans go to an OTLP/HTTP receiver inside the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReceivedSpan } from '../support/otlpReceiver.js';
import { startTestApp, type TestApp } from '../support/testApp.js';
import { capturedLog, tracingToReceiver } from '../support/tracingToReceiver.js';

const traces = tracingToReceiver({ OTEL_SERVICE_NAME: 'trips-under-test' });
const { logger, lines: logLines } = capturedLog();
let traced: TestApp;
let untraced: TestApp;

beforeAll(async () => {
  traced = await startTestApp(traces.env, { logger });
  untraced = await startTestApp();
});

afterAll(async () => {
  await Promise.all([traced?.close(), untraced?.close()]);
});

const received = () => traces.received();

const serverSpans = (spans: ReceivedSpan[], name: string) => spans.filter((s) => s.name === name && s.kind === 2);

describe('request spans', () => {
  it('one server span per request, named by its operationId, with method, route, path and status; never the query or the token', async () => {
    const { accessToken } = await traced.signIn('spans@example.com');
    const before = serverSpans(traces.receiver.spans, 'listTripPlans').length;
    const res = await traced.request('GET', '/api/v1/trips', { token: accessToken, query: { size: 7, sort: 'startDate:asc' } });
    expect(res.status).toBe(200);

    const spans = serverSpans(await received(), 'listTripPlans');
    expect(spans).toHaveLength(before + 1);
    const span = spans.at(-1)!;
    expect(span.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/api/v1/trips',
      'url.path': '/api/v1/trips',
      'http.response.status_code': 200,
    });
    expect(span.parentSpanId).toBe('');
    expect(span.resource['service.name']).toBe('trips-under-test');
    const sent = traces.receiver.bodies.join('\n');
    expect(sent).not.toContain(accessToken);
    expect(sent).not.toContain('size=7');
    expect(sent).not.toContain('startDate:asc');
  });

  it("a caller's traceparent: the span is a child of the caller's span, in the caller's trace", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpanId = '00f067aa0ba902b7';
    const res = await traced.request('GET', '/api/v1/regions', { headers: { traceparent: `00-${traceId}-${callerSpanId}-01` } });
    expect(res.status).toBe(200);
    const span = serverSpans(await received(), res.operationId!).find((s) => s.traceId === traceId);
    expect(span).toMatchObject({ traceId, parentSpanId: callerSpanId, attributes: { 'http.route': '/api/v1/regions', 'http.response.status_code': 200 } });
  });

  it('a refused request is still named by its operation, with the status it got', async () => {
    const res = await traced.request('GET', '/api/v1/members/me');
    expect(res.status).toBe(401);
    const span = serverSpans(await received(), 'getMe').at(-1);
    expect(span?.attributes).toMatchObject({ 'http.route': '/api/v1/members/me', 'http.response.status_code': 401 });
  });

  it('a method that is not a known one is _OTHER, with the method sent in http.request.method_original, and names the span HTTP', async () => {
    const res = await traced.request('PROPFIND', '/api/v1/trips');
    expect(res.status).toBe(405);
    const spans = serverSpans(await received(), 'HTTP');
    expect(spans.at(-1)?.attributes).toMatchObject({
      'http.request.method': '_OTHER',
      'http.request.method_original': 'PROPFIND',
      'url.path': '/api/v1/trips',
      'http.response.status_code': 405,
    });
    expect(serverSpans(await received(), 'PROPFIND')).toEqual([]);
  });

  it("the request's log line carries the trace id and span id of its span", async () => {
    const res = await traced.request('GET', '/api/v1/regions', { headers: { 'x-request-id': 'logged-and-traced-1' } });
    expect(res.status).toBe(200);
    const line = logLines.find((l) => l.requestId === 'logged-and-traced-1' && l.msg === 'request');
    const span = serverSpans(await received(), 'listRegions').find((s) => s.spanId === line?.span_id);
    expect(span).toBeDefined();
    expect(line).toMatchObject({ trace_id: span!.traceId, span_id: span!.spanId, operationId: 'listRegions' });
  });

  it('an app without OTEL_EXPORTER_OTLP_ENDPOINT makes no request spans, even in a process where tracing runs', async () => {
    const countBefore = (await received()).length;
    expect((await untraced.request('GET', '/api/v1/regions')).status).toBe(200);
    expect((await received()).length).toBe(countBefore);
  });
});
