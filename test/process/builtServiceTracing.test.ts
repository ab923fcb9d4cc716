// The built service (the bundle `npm start` runs) with OTEL_EXPORTER_OTLP_ENDPOINT sends its
// request spans. The in-process tests run the sources, with one copy of the OpenTelemetry API; the
// bundle has its own copy beside the SDK's (tools/build/bundleServer.ts, BUNDLED_PACKAGES), and its
// tracers stay no-ops unless the tracer provider is registered through it (composition/tracing.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUpsAfterEach } from '../support/cleanUps.js';
import { ensureFreshBuild } from '../support/freshBuild.js';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlpReceiver.js';
import { exitOf, lineOf, spawnBuiltService } from '../support/serviceProcess.js';

const HANG_LIMIT_MS = 60_000;
beforeAll(ensureFreshBuild, 2 * HANG_LIMIT_MS);

const cleanUps = cleanUpsAfterEach();
let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(() => receiver.close());

describe('the built service with tracing on', { timeout: 2 * HANG_LIMIT_MS }, () => {
  it('sends the span of a request to the OTLP endpoint', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-built-tracing-'));
    cleanUps.add(() => fs.rmSync(dir, { recursive: true, force: true }));
    const child = spawnBuiltService({ DATA_DIR: dir, PORT: '0', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'bundle-check' });
    cleanUps.add(() => void child.kill('SIGKILL'));
    const { port } = JSON.parse(await lineOf(child, /"msg":"listening/, HANG_LIMIT_MS)) as { port: number };
    // A caller's traceparent: the propagator the SDK installed reads it for the bundle's tracers.
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpanId = '00f067aa0ba902b7';
    const traceparent = `00-${traceId}-${callerSpanId}-01`;
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/regions`, { headers: { traceparent } })).status).toBe(200);
    const exit = exitOf(child, HANG_LIMIT_MS);
    // The stop sends the last spans before the process ends.
    child.kill('SIGTERM');
    expect((await exit).code).toBe(0);
    const request = receiver.spans.find((span) => span.attributes['url.path'] === '/api/v1/regions');
    expect(request, JSON.stringify(receiver.spans.map((span) => span.name))).toBeDefined();
    expect(request!.kind).toBe(2);
    expect(request!.traceId).toBe(traceId);
    expect(request!.parentSpanId).toBe(callerSpanId);
    expect(request!.resource['service.name']).toBe('bundle-check');
  });
});
