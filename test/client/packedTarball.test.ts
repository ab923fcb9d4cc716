// The client package as an application team gets it: `npm pack` of the workspace (its prepack
// compiles src/ to dist/ with declarations), installed from the tarball into a fresh project outside
// this repository by npm (its dependency comes from npm's cache or registry), then type-checked as
// that project would (tsc --strict, DOM typings, no @types/node), loaded by plain Node, and called.
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../sdk/strictCompile.js';
import { startTestServer, type TestServer } from '../support/testServer.js';

const root = path.resolve(import.meta.dirname, '../..');
let dir: string;
let project: string;
let packedFiles: string[];

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
  return result.stdout;
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'packed-client-'));
  const [packed] = JSON.parse(run('npm', ['pack', '--workspace', 'client', '--pack-destination', dir, '--json'], root)) as {
    filename: string;
    files: { path: string }[];
  }[];
  packedFiles = packed!.files.map((f) => f.path);
  project = path.join(dir, 'project');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'client-consumer', private: true, type: 'module' }));
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(dir, packed!.filename)], project);
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the packed client package', () => {
  it('holds the compiled code with its declarations and the README, nothing of src/ or the repository', () => {
    expect(packedFiles).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/generated/http/operations.d.ts']),
    );
    expect(packedFiles.filter((f) => !/^dist\/.*\.(js|d\.ts)$/.test(f) && f !== 'package.json' && f !== 'README.md')).toEqual([]);
    expect(fs.existsSync(path.join(project, 'node_modules', '@stomp', 'stompjs', 'package.json'))).toBe(true);
  });

  it('type-checks a consumer under tsc --strict, and a wrong input is a compile error there', () => {
    const consumer = path.join(project, 'consumer.ts');
    fs.writeFileSync(
      consumer,
      `import { createHttpClient, type HttpErrorCode } from '@trip-itinerary/client';

const client = createHttpClient({ baseUrl: 'https://trips.example.com', retry: { attempts: 2 } });

export async function titleOrCode(tripPlanId: number): Promise<string | HttpErrorCode | null> {
  // @ts-expect-error the path parameter is an integer
  await client.operations.getTripPlan({ path: { tripPlanId: 'seven' } });
  const plan = await client.operations.getTripPlan({ path: { tripPlanId } });
  return plan.ok ? plan.data.title : (plan.error?.code ?? null);
}
`,
    );
    const wrong = path.join(project, 'wrong.ts');
    fs.writeFileSync(
      wrong,
      `import { createHttpClient } from '@trip-itinerary/client';
export const wrong = createHttpClient({ baseUrl: 'https://trips.example.com' }).operations.getTripPlan({ path: { tripPlanId: 'seven' } });
`,
    );
    const diagnostics = compile([consumer, wrong]);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatch(/wrong\.ts\(2,\d+\): TS2322 Type 'string' is not assignable to type 'number'/);
  });

  it('loads in plain Node and calls the service', async () => {
    const server: TestServer = await startTestServer();
    try {
      const script = `const { createHttpClient } = await import('@trip-itinerary/client');
const regions = await createHttpClient({ baseUrl: ${JSON.stringify(server.url)} }).operations.listRegions();
process.stdout.write(JSON.stringify([regions.ok, regions.status, regions.ok && regions.data.regions.length > 0]));`;
      // Not spawnSync: the server answers from this process.
      const child = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: project, encoding: 'utf8' });
      expect(child.stderr).toBe('');
      expect(JSON.parse(child.stdout)).toEqual([true, 200, true]);
    } finally {
      await server.stop();
    }
  });
});
