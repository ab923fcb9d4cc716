// Start-up time matters: the service started without OTEL_EXPORTER_OTLP_ENDPOINT loads no part of
// the OpenTelemetry SDK, only the no-op @opentelemetry/api; with it, the SDK and the exporter load.
// The real process (npm start), with a module hook recording what it resolves.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exitOf, lineOf, repoRoot, spawnService } from '../support/serviceProcess.js';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

/** The @opentelemetry packages the service resolved from its start to 'listening'. */
async function packagesLoaded(env: Record<string, string>): Promise<string[]> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'otel-loads-'));
  folders.push(folder);
  const record = path.join(folder, 'loads.txt');
  fs.writeFileSync(record, '');
  const child = spawnService({
    ...env,
    PORT: '0',
    DATA_DIR: folder,
    LOG_LEVEL: 'info',
    NODE_OPTIONS: `--import tsx --import ${path.join(repoRoot, 'test/support/recordPackageLoads.ts')}`,
    RECORD_PACKAGE_LOADS_FILE: record,
    RECORD_PACKAGE_LOADS_MATCH: '/node_modules/@opentelemetry/',
  });
  const exit = exitOf(child, 30_000);
  await lineOf(child, /"msg":"listening/, 30_000);
  child.kill('SIGTERM');
  expect((await exit).code).toBe(0);
  const urls = fs.readFileSync(record, 'utf8').split('\n').filter(Boolean);
  return [...new Set(urls.map((url) => /\/node_modules\/(@opentelemetry\/[^/]+)\//.exec(url)![1]!))].sort();
}

describe('the OpenTelemetry SDK is loaded only when tracing is configured', () => {
  it('without OTEL_EXPORTER_OTLP_ENDPOINT: only @opentelemetry/api', async () => {
    expect(await packagesLoaded({})).toEqual(['@opentelemetry/api']);
  });

  it('with it: the SDK and the OTLP exporter too', async () => {
    // Nobody listens there: the spans of the start are dropped, and the stop does not wait long.
    const loaded = await packagesLoaded({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
    expect(loaded).toEqual(expect.arrayContaining(['@opentelemetry/api', '@opentelemetry/sdk-trace-node', '@opentelemetry/exporter-trace-otlp-http']));
  });
});
