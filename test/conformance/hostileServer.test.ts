// The conformance runner against a hostile server, run as its bin in a child process: whatever the
// server serves (a spec with a pattern that backtracks catastrophically, a spec or a body that never
// ends, answers slow enough to make the run endless), the run ends by its deadline with a report
// that says what happened, and its memory stays bounded.
import type http from 'node:http';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runConformanceBin, type BinRun } from '../support/conformanceBin.js';
import { hostileOpenapi, startHostileServer, stream, type HostileRoute, type HostileServer } from '../support/hostileSpecServer.js';

const servers: HostileServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** Starts the server and runs the bin against it; a run still going after `killAfterMs` is killed. */
async function runAgainst(route: HostileRoute, args: string[], options: { openapi?: object; killAfterMs?: number } = {}): Promise<BinRun> {
  const server = await startHostileServer(route, options.openapi);
  servers.push(server);
  return runConformanceBin(['--base-url', server.url, ...args], options.killAfterMs ?? 60_000);
}

const only = (url: string, answer: (res: http.ServerResponse) => void): HostileRoute => {
  return (req, res) => (req.url === url ? (answer(res), true) : false);
};
const json = { 'content-type': 'application/json' };

/** What the runner takes when nothing is hostile: the bound its memory is measured against. */
let baseline: BinRun;
beforeAll(async () => {
  baseline = await runAgainst(() => false, ['--phases', 'examples']);
  expect(baseline.code, baseline.stdout + baseline.stderr).toBe(0);
}, 90_000);

/** How much more memory than the baseline run a hostile run may take: well under what it was sent. */
const MEMORY_SLACK_MIB = 48;

describe('the conformance runner against a hostile server', () => {
  it('bounds a response validation that backtracks catastrophically and ends the run with a note', async () => {
    // `^(a+)+$` against 64 a's and a b: some 2^64 steps of backtracking, on every answer of getEcho.
    const openapi = hostileOpenapi({ type: 'object', properties: { data: { type: 'object', properties: { word: { type: 'string', pattern: '^(a+)+$' } } } } });
    const run = await runAgainst(
      only('/echo', (res) => res.writeHead(200, json).end(JSON.stringify({ data: { word: `${'a'.repeat(64)}b` } }))),
      ['--phases', 'examples,positive', '--max-examples', '3', '--timeout-ms', '2000'],
      { openapi },
    );
    expect(run.killed, 'the runner hung').toBe(false);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('[body_valid] getEcho: the 200 body was not checked: the validation against this schema did not finish within 2000 ms');
    expect(run.stdout).toContain('may backtrack catastrophically');
    // Later answers against the same schema are not waited for again.
    expect(run.stdout).toContain('[body_valid] getEcho: the 200 body was not checked: an earlier validation against this schema did not finish within 2000 ms');
  }, 90_000);

  it('refuses a served spec of 64 MiB at the document limit, without reading it', async () => {
    const line = Buffer.from(`# ${'x'.repeat(1021)}\n`);
    const run = await runAgainst(
      only('/openapi.yaml', (res) => (res.writeHead(200, { 'content-type': 'application/yaml' }), stream(res, line, 64 * 1024 * 1024))),
      ['--phases', 'examples'],
    );
    expect(run.peakRssMib).toBeLessThan(baseline.peakRssMib! + MEMORY_SLACK_MIB);
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toContain('the body is over the limit of 10485760 bytes');
  }, 90_000);

  it('refuses a served spec whose Content-Length is over the limit before reading any of it', async () => {
    const run = await runAgainst(
      only('/openapi.yaml', (res) => (res.writeHead(200, { 'content-type': 'application/yaml', 'content-length': 2048 }), res.end('#'.repeat(2048)))),
      ['--max-document-bytes', '1024'],
    );
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toContain('the body declares 2048 bytes (Content-Length), over the limit of 1024');
  }, 90_000);

  it('caps an endless response body and reports it as response_size', async () => {
    const run = await runAgainst(
      only('/echo', (res) => (res.writeHead(200, json), stream(res, Buffer.alloc(64 * 1024, 'a')))),
      ['--phases', 'examples', '--timeout-ms', '20000'],
    );
    expect(run.killed, 'the runner hung').toBe(false);
    expect(run.peakRssMib).toBeLessThan(baseline.peakRssMib! + MEMORY_SLACK_MIB);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('[response_size] getEcho: status 200: the body is over the limit of 4194304 bytes (reading stopped there)');
  }, 90_000);

  it('stops at --deadline-ms a run the server makes endless, and reports the phases it ran', async () => {
    // Each answer takes a while, and a thousand examples of each operation are asked for.
    const slowly: HostileRoute = (req, res) => req.url === '/echo' && (setTimeout(() => res.writeHead(200, json).end('{"data":{}}'), 200), true);
    const run = await runAgainst(slowly, ['--phases', 'examples,positive,negative', '--max-examples', '1000', '--deadline-ms', '5000']);
    expect(run.killed, 'the runner hung').toBe(false);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^ok {3}examples/m);
    expect(run.stdout).toContain("[run_deadline] positive: the run's deadline passed during this phase, and the run stopped here; not run: negative");
  }, 90_000);

  it('refuses a limit that is not a positive whole number as a usage error', async () => {
    const run = await runConformanceBin(['--base-url', 'http://127.0.0.1:9', '--max-body-bytes', '0'], 30_000);
    expect(run.code).toBe(64);
    expect(run.stderr).toContain('--max-body-bytes must be a positive whole number');
  }, 60_000);
});
