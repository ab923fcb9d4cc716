// The self-test trusts no operator result when the runner fails through the proxy without any
// mutation (the baseline): against a server that fails the runner by itself, the library reports
// the baseline failed and runs no operator after it, and the bin exits 2 saying so (and writes the
// JSON report); a usage error is 64.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allOperators } from '../../conformance/mutation/operators/index.js';
import { runMutationSelfTest } from '../../conformance/mutation/selfTest.js';
import { formatSelfTestReport } from '../../conformance/mutation/selfTestReport.js';
import { loadSpecIndex } from '../../conformance/runner/specIndex.js';
import { runPackageBin } from '../support/conformanceBin.js';

const root = path.resolve(import.meta.dirname, '../..');
const specFiles = { openapi: path.join(root, 'specs/openapi.yaml'), asyncapi: path.join(root, 'specs/asyncapi.yaml') };
const spec = loadSpecIndex(specFiles.openapi, specFiles.asyncapi);

/** A server without dev-login: the runner cannot sign in, with or without a proxy in front. */
const notFound = http.createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"success":false}'));
let url = '';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mutants-'));
beforeAll(async () => {
  await new Promise<void>((resolve) => notFound.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(notFound.address() as AddressInfo).port}`;
});
afterAll(async () => {
  notFound.closeAllConnections();
  await new Promise((resolve) => notFound.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the self-test when the baseline fails', () => {
  it('reports the baseline failed and runs no operator once it knows', async () => {
    const operators = allOperators.filter((o) => ['plan-without-title', 'rename-not-saved', 'not-found-as-500'].includes(o.id));
    const report = await runMutationSelfTest(spec, {
      baseUrl: url,
      wsUrl: `${url.replace('http', 'ws')}/ws-stomp`,
      login: 'dev',
      seed: 1,
      maxExamples: 1,
      timeoutMs: 2000,
      concurrency: 1,
      operators,
    });
    expect(report.baseline.passed).toBe(false);
    expect(report.baseline.phases).toEqual(['examples', 'auth', 'stateful']);
    expect(report.baseline.failures[0]?.check).toBe('setup');
    expect(report.baseline.failures[0]?.message).toMatch(/dev-login answered 404/);
    // One at a time, the baseline's phases come first: no operator starts after the first of them failed.
    expect(report.operators).toEqual([]);
    expect(formatSelfTestReport(report, 95)).toMatch(/^baseline {2}FAILED through the proxy without any mutation/);
  });

  it('makes the bin exit 2, with the report as text and JSON', async () => {
    const json = path.join(dir, 'report.json');
    const run = await runPackageBin(
      'trip-conformance-mutants',
      [
        '--base-url',
        url,
        '--openapi',
        specFiles.openapi,
        '--asyncapi',
        specFiles.asyncapi,
        '--operators',
        'plan-without-title',
        '--timeout-ms',
        '2000',
        '--json',
        json,
      ],
      60_000,
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toMatch(/baseline {2}FAILED/);
    const written = JSON.parse(fs.readFileSync(json, 'utf8')) as { baseline: { passed: boolean }; minScore: number; operators: unknown[] };
    expect(written).toMatchObject({ baseline: { passed: false }, minScore: 95 });
  }, 60_000);

  it('makes the bin exit 64 on a usage error', async () => {
    const run = await runPackageBin('trip-conformance-mutants', ['--base-url', url, '--operators', 'no-such-operator'], 60_000);
    expect(run.code).toBe(64);
    expect(run.stderr).toMatch(/unknown operator\(s\) no-such-operator/);
  }, 60_000);
});
