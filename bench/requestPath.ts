// `npm run bench -- request`: what one `GET /api/v1/trips?size=20` (auth + validation + query +
// envelope) costs the server process, next to a bare Hono hello-world and, with `--baseline <dir>`,
// the same route of another checkout of this repository (e.g. `git worktree add /tmp/base <commit>`
// with its node_modules), all in one run. The servers are started together and measured in turns,
// round after round, so that other work on the machine weighs on each alike; per server it prints
// the median over the rounds of req/s, of req/s ÷ the same round's hello req/s, and of the server
// process's own CPU time per response (the measure that load moves least).
//   --seconds N (5) per measurement, --rounds N (3), --engine sqlite|postgres (sqlite),
//   --path <GET path> (/api/v1/trips?size=20), --log-level <LOG_LEVEL> (warn, as bench http; production's
//   default is info: one line per request), --profile <dir>: our server runs with --cpu-prof into <dir>; its self time is summarised at the end,
//   --fastify: the Fastify + ajv peer of the list route (bench/peers/fastifyListServer.ts, on the same engine) is measured too, and
//   profiled with --profile, so that where the two spend their time can be compared side by side; with it every server but
//   the hello is also measured on `GET /api/v1/trips/{tripPlanId}` (ids spread over the member's plans, the same sequence for each;
//   its profiles then cover both routes), --list-only: not the detail (a profile of the list alone).
// The rounds are bench/lib/measureInTurns.ts's, as the summary's rows against the Fastify peer.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/index.js';
import { benchPostgres, type BenchPostgres } from './lib/benchPostgres.js';
import { startChildServer, type ChildServer } from './lib/childServer.js';
import { summariseCpuProfile } from './lib/cpuProfileSummary.js';
import { freePort } from './lib/freePort.js';
import { machineLines } from './lib/machine.js';
import { median } from './lib/loadTest.js';
import { measureInTurns, toMeasure, type Measured } from './lib/measureInTurns.js';
import { seedServerDb } from './lib/seedServerDb.js';
import { textTable } from './lib/textTable.js';
import { deploymentEnv } from './lib/deploymentEnv.js';
import { freshBuiltServer } from './lib/builtServer.js';
import { detailPaths, fastifyPeerEntry, fastifyPeerEnv, sameAnswers } from './lib/vsFastify.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = (line: string) => process.stdout.write(`${line}\n`);
const connections = 50;
const warmupSeconds = 1;
const seededPlans = 10_000;

const { values: args } = parseArgs({
  options: {
    baseline: { type: 'string' },
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    engine: { type: 'string', default: 'sqlite' },
    profile: { type: 'string' },
    path: { type: 'string', default: '/api/v1/trips?size=20' },
    'log-level': { type: 'string', default: 'warn' },
    fastify: { type: 'boolean', default: false },
    'list-only': { type: 'boolean', default: false },
  },
});
const seconds = Number(args.seconds);
const rounds = Number(args.rounds);
if (!Number.isInteger(seconds) || seconds < 1 || !Number.isInteger(rounds) || rounds < 1) throw new Error('--seconds and --rounds take positive integers');
if (args.engine !== 'sqlite' && args.engine !== 'postgres') throw new Error('--engine is sqlite or postgres');
const baselineDir = args.baseline === undefined ? undefined : path.resolve(args.baseline);
if (baselineDir && !fs.existsSync(path.join(baselineDir, 'node_modules'))) throw new Error(`${baselineDir} has no node_modules: copy them in first`);
// Another GET of the service to measure the same way, e.g. /healthz for what every request costs.
const listPath = args.path;
const profileDir = args.profile === undefined ? undefined : path.resolve(args.profile);
const withDetail = args.fastify && !args['list-only'];

const children: ChildServer[] = [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-bench-request-'));
let postgres: BenchPostgres | undefined;

async function cleanUp(): Promise<void> {
  await Promise.all(children.splice(0).map((child) => child.stop()));
  if (postgres?.available) await postgres.drop();
  fs.rmSync(dir, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });
}

async function databaseUrl(): Promise<string> {
  if (args.engine === 'sqlite') return path.join(dir, 'list.sqlite');
  postgres = await benchPostgres();
  if (!postgres.available) throw new Error(postgres.reason);
  return postgres.url;
}

async function main(): Promise<void> {
  out(`== Request path: GET ${listPath}${withDetail ? ' and GET /api/v1/trips/{id}' : ''}, server CPU per request`);
  for (const line of machineLines()) out(line);
  const serverEnv = deploymentEnv({ dataDir: dir, databaseUrl: await databaseUrl(), logLevel: args['log-level'] });
  const seeded = await seedServerDb(loadConfig(serverEnv), seededPlans);
  const auth = { Authorization: `Bearer ${seeded.accessToken}` };
  // The Fastify peer reads the same database with the same secret (the summary's list row does the same),
  // on PostgreSQL with a pool of the service's default size.
  const peerEnv = fastifyPeerEnv(serverEnv, args.engine as 'sqlite' | 'postgres');
  out(
    `setup:  ${args.engine}, LOG_LEVEL=${args['log-level']}, ${seededPlans} plans of one member; ${connections} connections, ${warmupSeconds} s warm-up + ${seconds} s per measurement, ${rounds} rounds in turns`,
  );

  const start = async (
    name: string,
    entry: string,
    cwd: string,
    env: Record<string, string>,
    readyPath: string,
    url: string,
    headers = {},
    nodeArgs: string[] = [],
  ) => {
    const server = await startChildServer({ entry, cwd, port: await freePort(), env, readyPath, nodeArgs });
    children.push(server);
    return { ...toMeasure(name, server, { name, url: `${server.baseUrl}${url}`, headers }), server };
  };
  const profileArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const hello = await start('hello (bare Hono)', 'bench/peers/helloServer.ts', root, {}, '/', '/');
  const spawned = performance.now();
  const ours = await start('ours', freshBuiltServer(root, out), root, serverEnv, '/readyz', listPath, auth, profileArgs);
  // The profile's start-up part, left out of its summary.
  const startupMs = performance.now() - spawned;
  const measured: Measured[] = [hello, ours];
  if (baselineDir) {
    // Compiled like ours where the checkout has a build; a checkout from before it runs under tsx, which costs more CPU.
    const compiled = fs.existsSync(path.join(baselineDir, 'tsconfig.build.json'));
    const name = `baseline (${path.basename(baselineDir)}${compiled ? '' : ', under tsx'})`;
    const entry = compiled ? freshBuiltServer(baselineDir, out) : 'src/main.ts';
    measured.push(await start(name, entry, baselineDir, serverEnv, '/readyz', listPath, auth));
  }
  const profiled = [{ m: ours, startupMs }];
  if (args.fastify) {
    const fastifySpawned = performance.now();
    const fastify = await start('Fastify + ajv', fastifyPeerEntry, root, peerEnv, '/readyz', listPath, auth, profileArgs);
    measured.push(fastify);
    profiled.push({ m: fastify, startupMs: performance.now() - fastifySpawned });
  }
  // Each server's list, then (with --fastify) each one's detail: ids spread over the member's plans.
  const lists = measured.slice(1);
  const paths = detailPaths(seeded.tripPlanIds);
  const details = withDetail
    ? lists.map((m) => toMeasure(m.name, m.server, { name: m.name, url: `${new URL(m.target.url).origin}${paths[0]}`, headers: auth, paths }))
    : [];
  const routeOf = new Map<Measured, string>([
    [hello, 'GET /'],
    ...lists.map((m) => [m, `GET ${listPath}`] as const),
    ...details.map((m) => [m, 'GET /api/v1/trips/{id}'] as const),
  ]);
  measured.push(...details);

  // Every implementation must answer the same page and detail, or the comparison means nothing.
  await sameAnswers(
    lists.map((m) => m.target),
    auth,
  );
  if (details.length > 0)
    await sameAnswers(
      details.map((m) => m.target),
      auth,
    );

  const loads = await measureInTurns(measured, { rounds, seconds, warmupSeconds, connections });
  const ratio = (m: Measured) => median(m.reqPerSec.map((r, i) => r / hello.reqPerSec[i]!));
  out(`load after each round: ${loads.join(' | ')}`);
  out('');
  out(
    textTable(
      ['server', 'route', 'req/s', '÷ hello', 'p99 ms', 'CPU µs/req', 'CPU µs/req per round', 'failures'],
      measured.map((m) => [
        m.name,
        routeOf.get(m)!,
        median(m.reqPerSec).toFixed(0),
        ratio(m).toFixed(3),
        median(m.p99Ms).toFixed(1),
        m.cpuUs.length ? median(m.cpuUs).toFixed(0) : '-',
        m.cpuUs.map((us) => us.toFixed(0)).join(' '),
        String(m.failures),
      ]),
    ),
  );
  if (measured.some((m) => m.failures > 0)) process.exitCode = 1;

  if (profileDir) {
    for (const { m, startupMs: skipMs } of profiled) {
      await m.server.stop();
      const file = fs
        .readdirSync(profileDir)
        // CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile: thread 0 is the main one (tsx's loader has another).
        .filter((f) => f.endsWith('.cpuprofile') && f.includes(`.${m.server.pid}.0.`))
        .map((f) => path.join(profileDir, f))[0];
      if (!file) throw new Error(`no .cpuprofile of process ${m.server.pid} in ${profileDir}`);
      const summary = summariseCpuProfile(file, { skipMs });
      out('');
      const routes = withDetail ? 'its list and detail runs' : 'its list runs';
      out(`== Profile of ${m.name} after start-up, ${routes} (idle while the others ran): ${file}, idle ${(summary.idle * 100).toFixed(0)}%`);
      const rows = (list: { name: string; share: number }[]) => list.map((s) => [(s.share * 100).toFixed(1), s.name]);
      out(textTable(['self %', 'where'], rows(summary.byPlace)));
      out('');
      out(textTable(['self %', 'function'], rows(summary.byFunction)));
      if (summary.repositoryTotal.length === 0) continue;
      out('');
      out(textTable(['total %', 'function of src/ or generated/'], rows(summary.repositoryTotal)));
    }
  }
}

try {
  await main();
} catch (error) {
  process.stderr.write(`benchmark failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
