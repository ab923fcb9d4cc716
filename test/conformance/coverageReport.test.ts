// The coverage report of a conformance run: what the specs document (operations × statuses, the
// headers of those responses, channels × messages, error codes) against what the run exercised and
// checked, and --min-coverage failing a run that reached too little.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coverageOf, type CoverageReport } from '../../conformance/runner/coverage.js';
import { loadSpecIndex } from '../../conformance/runner/specIndex.js';
import { runConformanceBin } from '../support/conformanceBin.js';
import { startTestServer, type TestServer } from '../support/testServer.js';

const root = path.resolve(import.meta.dirname, '../..');
const spec = loadSpecIndex(path.join(root, 'specs/openapi.yaml'), path.join(root, 'specs/asyncapi.yaml'));
const dimension = (report: CoverageReport, name: string) => report.dimensions.find((d) => d.name === name)!;

describe('the coverage of a run', () => {
  it('counts nothing as reached when nothing was observed, and lists every documented item', () => {
    const report = coverageOf(spec, []);
    expect(report.percent).toBe(0);
    expect(dimension(report, 'operation statuses').missing).toContain('getTripPlan 404');
    expect(dimension(report, 'response headers').missing).toContain('getMe 200 X-Request-Id');
    expect(dimension(report, 'channel messages').missing).toEqual(
      expect.arrayContaining(['scheduleUpdates TripPlanProgressMessage', 'stompConnection StompConnected']),
    );
    expect(dimension(report, 'error codes').missing).toEqual(expect.arrayContaining(['TRIP101', 'WS001']));
    for (const d of report.dimensions) expect(d.documented, d.name).toBe(d.missing.length);
  });

  it('counts a checked response with its status, headers (any case) and error code, a frame by its command, a MESSAGE by its channel', () => {
    const report = coverageOf(spec, [
      { kind: 'response', operationId: 'getTripPlan', status: 404, headers: ['x-request-id', 'content-type'], code: 'TRIP101' },
      { kind: 'frame', command: 'CONNECTED' },
      { kind: 'frame', command: 'MESSAGE', channel: 'scheduleUpdates' },
      { kind: 'errorCode', code: 'WS001' },
    ]);
    expect(dimension(report, 'operation statuses').missing).not.toContain('getTripPlan 404');
    expect(dimension(report, 'response headers').missing).not.toContain('getTripPlan 404 X-Request-Id');
    expect(dimension(report, 'response headers').missing).toContain('getTripPlan 404 RateLimit-Limit');
    expect(dimension(report, 'channel messages').missing).not.toContain('stompConnection StompConnected');
    expect(dimension(report, 'channel messages').missing.filter((m) => m.startsWith('scheduleUpdates '))).toEqual([]);
    expect(dimension(report, 'error codes').missing).not.toEqual(expect.arrayContaining(['TRIP101']));
    expect(dimension(report, 'error codes').missing).not.toEqual(expect.arrayContaining(['WS001']));
    expect(report.percent).toBeGreaterThan(0);
  });
});

describe('--coverage and --min-coverage', () => {
  let server: TestServer;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coverage-'));
  beforeAll(async () => {
    server = await startTestServer({});
  });
  afterAll(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes the report, prints it, and fails a run below the floor', async () => {
    const file = path.join(dir, 'coverage.json');
    const run = await runConformanceBin(
      ['--base-url', server.url, '--phases', 'examples', '--max-examples', '1', '--coverage', file, '--min-coverage', '99'],
      60_000,
    );
    const report = JSON.parse(fs.readFileSync(file, 'utf8')) as CoverageReport;
    expect(run.stdout).toContain(`coverage: ${report.percent}% of what the specs document was exercised and checked`);
    expect(report.percent).toBeLessThan(99);
    expect(dimension(report, 'operation statuses').exercised).toBeGreaterThan(10);
    expect(run.stdout).toContain(`conformance: coverage ${report.percent}% is below --min-coverage 99`);
    expect(run.code).toBe(1);
    const passing = await runConformanceBin(
      ['--base-url', server.url, '--phases', 'examples', '--max-examples', '1', '--min-coverage', String(Math.floor(report.percent))],
      60_000,
    );
    expect(passing.code, passing.stdout).toBe(0);
  }, 150_000);

  it('refuses a floor that is not a percentage', async () => {
    const run = await runConformanceBin(['--base-url', server.url, '--min-coverage', '120'], 30_000);
    expect(run.code).toBe(64);
    expect(run.stderr).toContain('--min-coverage must be a percentage from 0 to 100');
  });
});
