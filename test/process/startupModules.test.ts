// A start loads only what its configuration uses (ARCHITECTURE.md, "What a start loads"). The
// compiled service (what `npm start` runs: the bundle in dist/server/) is started with a module hook
// that writes down every module the ESM loader loads until /readyz answers, and each chunk of the
// bundle it loaded stands for the files the build put in it (dist/server/bundle-inputs.json); a default start (offline planner, SQLite, no
// Redis, no OpenID Connect) must not have loaded the packages of the parts it does not use (of
// OpenTelemetry only the no-op API, of rate-limiter-flexible only its memory limiter), and
// PLANNER=openai must load the OpenAI SDK, OTEL_EXPORTER_OTLP_ENDPOINT the OpenTelemetry SDK (so the
// hook sees what a static import would load).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanUpsAfterEach } from '../support/cleanUps.js';
import { ensureFreshBuild } from '../support/freshBuild.js';
import { exitOf, lineOf, repoRoot, serviceEnv } from '../support/serviceProcess.js';
import { serverBundleDir, serverBundleInputs } from '../../tools/build/bundleServer.js';

const HANG_LIMIT_MS = 60_000;
beforeAll(ensureFreshBuild, 2 * HANG_LIMIT_MS);

const cleanUps = cleanUpsAfterEach();

// Registers a load hook (it runs on the loader's thread) that appends each URL to MODULE_LOG.
const loadHook =
  'import fs from "node:fs"; export async function load(url, context, next) { fs.appendFileSync(process.env.MODULE_LOG, url + "\\n"); return next(url, context); }';
const registerHook = `import { register } from "node:module"; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(loadHook)}`)});`;

/** A loaded URL, or the URLs of the files in it when it is a chunk of the server bundle. */
function filesOf(url: string, chunks: Record<string, string[]>): string[] {
  const bundleDir = `${pathToFileURL(path.join(repoRoot, serverBundleDir)).href}/`;
  if (!url.startsWith(bundleDir)) return [url];
  const held = chunks[url.slice(bundleDir.length)];
  if (!held) throw new Error(`${url} is not a chunk of the build (${serverBundleInputs})`);
  return held.map((file) => pathToFileURL(path.join(repoRoot, file)).href);
}

/** The modules the compiled service loaded until it was ready (a chunk of the bundle as the files in it), and the npm packages (by name) they belong to. */
async function loadedUntilReady(env: Record<string, string>): Promise<{ modules: string[]; packages: Set<string> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-startup-modules-'));
  cleanUps.add(() => fs.rmSync(dir, { recursive: true, force: true }));
  const log = path.join(dir, 'modules.log');
  const child = spawn(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(registerHook)}`, `${serverBundleDir}/main.js`], {
    cwd: repoRoot,
    env: serviceEnv({ DATA_DIR: path.join(dir, 'data'), PORT: '0', MODULE_LOG: log, ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanUps.add(() => void child.kill('SIGKILL'));
  const { port } = JSON.parse(await lineOf(child, /"msg":"listening/, HANG_LIMIT_MS)) as { port: number };
  expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
  const loaded = fs.readFileSync(log, 'utf8');
  const exit = exitOf(child, HANG_LIMIT_MS);
  child.kill('SIGTERM');
  await exit;
  const chunks = JSON.parse(fs.readFileSync(path.join(repoRoot, serverBundleDir, serverBundleInputs), 'utf8')) as Record<string, string[]>;
  const urls = loaded.split('\n').filter(Boolean);
  // The bundle is what ran.
  expect(urls).toContain(pathToFileURL(path.join(repoRoot, serverBundleDir, 'main.js')).href);
  const modules = urls.flatMap((url) => filesOf(url, chunks));
  return { modules, packages: new Set(modules.flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? [])) };
}

describe('what a start loads', { timeout: 4 * HANG_LIMIT_MS }, () => {
  it('a default start (offline planner, SQLite) loads none of the OpenAI SDK, Redis, PostgreSQL, OpenID Connect or YAML packages', async () => {
    const { modules, packages } = await loadedUntilReady({});
    // What every start needs, so the log is known to work.
    expect(packages).toContain('hono');
    expect(packages).toContain('drizzle-orm');
    for (const unused of ['openai', 'ioredis', 'pg', 'openid-client', 'jose', 'yaml', 'ajv-formats']) {
      expect(packages, `${unused} was loaded`).not.toContain(unused);
    }
    // The rate limit in memory: of rate-limiter-flexible its memory limiter alone, not the index
    // that loads every store it has.
    const rateLimiter = modules.filter((url) => url.includes('/node_modules/rate-limiter-flexible/'));
    expect(rateLimiter.length).toBeGreaterThan(0);
    for (const url of rateLimiter)
      expect(url).toMatch(/\/rate-limiter-flexible\/lib\/(RateLimiterMemory|RateLimiterAbstract|RateLimiterRes|component\/MemoryStorage\/\w+)\.js$/);
    // Nor the OpenAI planner's own files. (drizzle's pg-core is partly loaded by drizzle itself: its
    // sql.js and relations.js import from it.)
    expect(modules.filter((url) => url.includes('/dist/src/generation/openai/') || url.endsWith('/dist/src/db/schema.pg.js'))).toEqual([]);
    expect([...packages].filter((name) => name.startsWith('@opentelemetry/'))).toEqual(['@opentelemetry/api']);
  });

  it('OTEL_EXPORTER_OTLP_ENDPOINT loads the OpenTelemetry SDK and its OTLP exporter', async () => {
    // Nobody listens there: the spans of the start are dropped, and the stop does not wait long.
    const { packages } = await loadedUntilReady({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
    expect([...packages]).toEqual(expect.arrayContaining(['@opentelemetry/api', '@opentelemetry/sdk-trace-node', '@opentelemetry/exporter-trace-otlp-http']));
  });

  it('PLANNER=openai loads the OpenAI SDK', async () => {
    // Never called: the start only builds the client (a local server that does not exist).
    const { packages } = await loadedUntilReady({ PLANNER: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
    expect(packages).toContain('openai');
  });
});
