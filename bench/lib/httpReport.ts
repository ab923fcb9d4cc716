// Steps 2-5 of the benchmark: for each engine (SQLite, and PostgreSQL when it answers) seed a
// database, start the real server on it as a child process on 127.0.0.1, check each target answers
// as expected, load it with autocannon and stop it again; a hello-world baseline is measured once.
// The engines run one after the other, never at once, and are printed side by side.
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/index.js';
import { startChildServer, type ChildServer } from './childServer.js';
import { benchPostgres } from './benchPostgres.js';
import { freePort } from './freePort.js';
import { runLoad, type LoadResult, type LoadTarget } from './loadTest.js';
import { seedServerDb } from './seedServerDb.js';
import { textTable } from './textTable.js';
import { deploymentEnv } from './deploymentEnv.js';

const connections = 50;
const warmupSeconds = 2;
const seededPlans = 10_000;
/** list req/s must reach this share of the hello-world baseline's */
const listTarget = 0.5;

const createBody = JSON.stringify({
  themes: ['FAMOUS_SPOT', 'RESTAURANT'],
  startDate: '2026-12-24',
  duration: 3,
  region: 'Busan',
  peopleCount: 2,
  transportation: 'PUBLIC_TRANSIT',
});

async function expectStatus(target: LoadTarget, status: number): Promise<unknown> {
  const res = await fetch(target.url, {
    method: target.method ?? 'GET',
    headers: target.headers ?? {},
    ...(target.body !== undefined && { body: target.body }),
  });
  const text = await res.text();
  if (res.status !== status) throw new Error(`${target.name}: expected ${status}, got ${res.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

interface Options {
  root: string;
  dir: string;
  seconds: number;
  started: (child: ChildServer) => void;
  out: (line: string) => void;
}

/** The service's targets on one engine's server, measured. */
async function measureEngine(opts: Options, databaseUrl: string): Promise<{ results: LoadResult[]; seedSeconds: number }> {
  const serverEnv = deploymentEnv({ dataDir: opts.dir, databaseUrl: databaseUrl });
  const seeded = await seedServerDb(loadConfig(serverEnv), seededPlans);
  const server = await startChildServer({ entry: 'src/main.ts', cwd: opts.root, port: await freePort(), env: serverEnv, readyPath: '/readyz' });
  opts.started(server);
  try {
    const auth = { Authorization: `Bearer ${seeded.accessToken}` };
    const targets: [LoadTarget, number][] = [
      [{ name: 'GET /api/v1/trips?size=20', url: `${server.baseUrl}/api/v1/trips?size=20`, headers: auth }, 200],
      [{ name: 'GET /api/v1/trips/{id}', url: `${server.baseUrl}/api/v1/trips/${seeded.tripPlanId}`, headers: auth }, 200],
      [
        {
          name: 'POST /api/v1/trips',
          url: `${server.baseUrl}/api/v1/trips`,
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: createBody,
        },
        201,
      ],
    ];
    for (const [target, status] of targets) await expectStatus(target, status);
    const page = (await expectStatus(targets[0]![0], 200)) as { data: { content: unknown[]; hasNext: boolean } };
    if (page.data.content.length !== 20 || !page.data.hasNext) throw new Error('the list did not return a full first page');
    const results: LoadResult[] = [];
    for (const [target] of targets) results.push(await runLoad(target, { seconds: opts.seconds, connections, warmupSeconds }));
    return { results, seedSeconds: seeded.seedMs / 1000 };
  } finally {
    await server.stop();
  }
}

export async function httpReport(opts: Options): Promise<void> {
  const { out } = opts;
  out(
    `server:  node --import tsx src/main.ts on 127.0.0.1 with NODE_ENV=production AUTH_DEV_LOGIN=false LOG_LEVEL=warn RATE_LIMIT_PER_MINUTE=0 MAX_CONNECTIONS_PER_ADDRESS=1000000 RESPONSE_VALIDATION=off`,
  );
  out(`         rate limiting off: the default 6000 requests/minute per client would answer 429 to a benchmark within a few seconds`);
  out(`         response validation off (production's default); development's default "log" checks every response body and is not measured here`);
  out(`engines: SQLite = a file in a temp folder; PostgreSQL = a fresh database on the local server (DATABASE_POOL_MAX 10), dropped afterwards`);
  out(`baseline: bare Hono GET / -> {"hello":"world"} on @hono/node-server, in its own process`);
  out(
    `load:    autocannon in this process, ${connections} connections, pipelining 1, ${warmupSeconds} s warm-up (discarded) then ${opts.seconds} s per target; load generator, servers (and PostgreSQL) share ${os.cpus().length} cores`,
  );
  out(`data:    ${seededPlans.toLocaleString('en-US')} trip plans (+ chat rooms) of the one member the load signs in as`);
  out('');

  const hello = await startChildServer({ entry: 'bench/peers/helloServer.ts', cwd: opts.root, port: await freePort(), env: {}, readyPath: '/' });
  opts.started(hello);
  const baseline = await runLoad({ name: 'hello-world GET /', url: `${hello.baseUrl}/` }, { seconds: opts.seconds, connections, warmupSeconds });
  await hello.stop();

  const sqlite = await measureEngine(opts, path.join(opts.dir, 'server.sqlite'));
  out(`SQLite: seeded in ${sqlite.seedSeconds.toFixed(1)} s`);
  const postgres = await benchPostgres();
  let onPostgres: { results: LoadResult[]; seedSeconds: number } | null = null;
  if (postgres.available) {
    try {
      onPostgres = await measureEngine(opts, postgres.url);
      out(`PostgreSQL: seeded in ${onPostgres.seedSeconds.toFixed(1)} s`);
    } finally {
      await postgres.drop();
    }
  } else {
    out(`PostgreSQL: not measured (${postgres.reason})`);
  }
  out('');

  const share = (r: LoadResult) => `${((r.reqPerSec / baseline.reqPerSec) * 100).toFixed(0)}%`;
  const rows = [
    [baseline.name, baseline.reqPerSec.toFixed(0), baseline.p99Ms.toFixed(2), share(baseline), '-', '-', '-'],
    ...sqlite.results.map((r, i) => {
      const p = onPostgres?.results[i];
      return [r.name, r.reqPerSec.toFixed(0), r.p99Ms.toFixed(2), share(r), p ? p.reqPerSec.toFixed(0) : '-', p ? p.p99Ms.toFixed(2) : '-', p ? share(p) : '-'];
    }),
  ];
  out(textTable(['target', 'SQLite req/s', 'p99 ms', 'vs hello', 'PostgreSQL req/s', 'p99 ms', 'vs hello'], rows));
  const failures = [...sqlite.results, ...(onPostgres?.results ?? [])].filter((r) => r.non2xx > 0 || r.errors > 0);
  for (const r of failures) out(`!! ${r.name}: ${r.non2xx} non-2xx responses, ${r.errors} errors`);
  const listShare = sqlite.results[0]!.reqPerSec / baseline.reqPerSec;
  out('');
  out(
    `target: list on SQLite >= ${listTarget * 100}% of hello-world req/s -> ${(listShare * 100).toFixed(0)}%: ${listShare >= listTarget ? 'MET' : 'NOT MET'}`,
  );
}
