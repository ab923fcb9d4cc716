// The conformance package as another team gets it: `npm pack` of the workspace, unpacked into a
// project folder outside this repository beside only the packages its package.json declares
// (linked from this repository's node_modules, where npm put them; nothing is downloaded), and its
// bin run with plain Node against a server on a free port, reading the specs the server serves.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonAt, objectOrEmpty, readYaml } from '../../conformance/specModel/index.js';
import { startTestServer, type TestServer } from '../support/testServer.js';

const root = path.resolve(import.meta.dirname, '../..');
let dir: string;
let packed: { filename: string; files: { path: string }[] };
let bin: string;
let server: TestServer;

function installPacked(): void {
  const pack = spawnSync('npm', ['pack', '--workspace', 'conformance', '--pack-destination', dir, '--json'], { cwd: root, encoding: 'utf8' });
  if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
  packed = (JSON.parse(pack.stdout) as (typeof packed)[])[0]!;
  const modules = path.join(dir, 'project', 'node_modules');
  fs.mkdirSync(modules, { recursive: true });
  const untar = spawnSync('tar', ['-xzf', path.join(dir, packed.filename), '-C', modules], { encoding: 'utf8' });
  if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
  const installed = path.join(modules, 'trip-itinerary-conformance');
  fs.renameSync(path.join(modules, 'package'), installed);
  const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    bin: Record<string, string>;
  };
  for (const name of Object.keys(manifest.dependencies)) {
    fs.mkdirSync(path.dirname(path.join(modules, name)), { recursive: true });
    fs.symlinkSync(path.join(root, 'node_modules', name), path.join(modules, name), 'dir');
  }
  bin = path.join(installed, manifest.bin['trip-conformance']!);
}

/** Runs the packed trip-conformance in the project folder; resolves with its exit code and output. */
function runBin(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: path.join(dir, 'project'), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'packed-conformance-'));
  installPacked();
  server = await startTestServer();
}, 120_000);
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the packed conformance package', () => {
  it('holds its bins, CLIs and spec model, and none of the repository around it', () => {
    const files = packed.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'bin/trip-conformance.js',
        'cli/conformance.ts',
        'runner/runner.ts',
        'specModel/index.ts',
        'stomp/recordingStompClient.ts',
      ]),
    );
    expect(files.filter((f) => /^(src|codegen|bench|tools|generated|specs|test)\//.test(f) || f.endsWith('.test.ts'))).toEqual([]);
  });

  it('checks a server against the specs it serves and writes JUnit XML (exit 0)', async () => {
    const junit = path.join(dir, 'examples.xml');
    const run = await runBin(['--base-url', server.url, '--phases', 'examples', '--max-examples', '1', '--junit', junit]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`against ${server.url}/openapi.yaml`);
    expect(run.stdout).toMatch(/^conformance: [1-9]\d* passed, 0 failed$/m);
    const xml = fs.readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuite name="examples" tests="[1-9]\d*" failures="0"/);
    expect(xml).toContain('<testcase classname="conformance.examples" name="status_documented getMe">');
  }, 60_000);

  it('reports a check that fails in its output and in JUnit (exit 1)', async () => {
    // A spec given as a file, in which getMe has no 200: the server's 200 is undocumented there.
    const openapi = readYaml(path.join(root, 'specs', 'openapi.yaml'));
    const getMe = Object.values(objectOrEmpty(openapi.paths))
      .map((item) => objectOrEmpty(item).get)
      .find((op) => jsonAt(op, 'operationId') === 'getMe');
    expect(jsonAt(getMe, 'responses', '200')).toBeDefined();
    delete objectOrEmpty(jsonAt(getMe, 'responses'))['200'];
    const specFile = path.join(dir, 'openapi-without-getMe-200.json');
    fs.writeFileSync(specFile, JSON.stringify(openapi));
    const junit = path.join(dir, 'failing.xml');
    const run = await runBin(['--base-url', server.url, '--openapi', specFile, '--phases', 'examples', '--max-examples', '1', '--junit', junit]);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toContain('[status_documented] getMe: status 200 is not documented for getMe');
    expect(fs.readFileSync(junit, 'utf8')).toMatch(
      /<testcase classname="conformance.examples" name="status_documented getMe"><failure message="status 200 is not documented for getMe">/,
    );
  }, 60_000);

  it('tells a run that cannot start (exit 2) from a usage error (exit 64)', async () => {
    const unreachable = await runBin(['--base-url', 'http://127.0.0.1:1', '--phases', 'examples']);
    expect([unreachable.code, unreachable.stderr]).toEqual([2, expect.stringContaining('cannot reach the server')]);
    const usage = await runBin(['--phases', 'examples']);
    expect([usage.code, usage.stdout]).toEqual([64, expect.stringContaining('usage: trip-conformance --base-url')]);
  }, 60_000);
});
