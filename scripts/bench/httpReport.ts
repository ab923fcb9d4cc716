// Steps 2-5 of the benchmark: seed a database, start the real server and a hello-world baseline as
// child processes on 127.0.0.1, check each target answers as expected, then load them with autocannon
// and print one table row per target.
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { startChildServer, type ChildServer } from './childServer.js';
import { freePort } from './freePort.js';
import { runLoad, type LoadResult, type LoadTarget } from './loadTest.js';
import { seedServerDb } from './seedServerDb.js';
import { textTable } from './textTable.js';

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

export async function httpReport(opts: {
  root: string;
  dir: string;
  seconds: number;
  started: (child: ChildServer) => void;
  out: (line: string) => void;
}): Promise<void> {
  const { out } = opts;
  const serverEnv = {
    NODE_ENV: 'development',
    AUTH_DEV_LOGIN: 'false',
    HOST: '127.0.0.1',
    DATA_DIR: opts.dir,
    DATABASE_URL: path.join(opts.dir, 'server.sqlite'),
    // 36 random bytes in base64url: a 48-byte secret, shared with the seeding below so its token verifies.
    JWT_SECRET: crypto.randomBytes(36).toString('base64url'),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '0',
    RESPONSE_VALIDATION: 'off',
  };
  const seeded = await seedServerDb(loadConfig(serverEnv), seededPlans);
  out(`seeded ${seededPlans.toLocaleString('en-US')} trip plans (+ chat rooms) for one member in ${(seeded.seedMs / 1000).toFixed(1)} s`);

  const server = await startChildServer({ entry: 'src/main.ts', cwd: opts.root, port: await freePort(), env: serverEnv, readyPath: '/readyz' });
  opts.started(server);
  const hello = await startChildServer({ entry: 'scripts/bench/helloServer.ts', cwd: opts.root, port: await freePort(), env: {}, readyPath: '/' });
  opts.started(hello);

  const auth = { Authorization: `Bearer ${seeded.accessToken}` };
  const targets: [LoadTarget, number][] = [
    [{ name: 'hello-world GET /', url: `${hello.baseUrl}/` }, 200],
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
  const page = (await expectStatus(targets[1]![0], 200)) as { data: { content: unknown[]; hasNext: boolean } };
  if (page.data.content.length !== 20 || !page.data.hasNext) throw new Error('the list did not return a full first page');

  out(
    `server:  node --import tsx src/main.ts on 127.0.0.1 with NODE_ENV=development AUTH_DEV_LOGIN=false LOG_LEVEL=warn RATE_LIMIT_PER_MINUTE=0 RESPONSE_VALIDATION=off`,
  );
  out(`         rate limiting off: the default 6000 requests/minute per client would answer 429 to a benchmark within a few seconds`);
  out(`         response validation off (production's default); development's default "log" checks every response body and is not measured here`);
  out(`baseline: bare Hono GET / -> {"hello":"world"} on @hono/node-server, in its own process`);
  out(
    `load:    autocannon in this process, ${connections} connections, pipelining 1, ${warmupSeconds} s warm-up (discarded) then ${opts.seconds} s per target; load generator and servers share ${os.cpus().length} cores`,
  );
  out('');

  const results: LoadResult[] = [];
  for (const [target] of targets) results.push(await runLoad(target, { seconds: opts.seconds, connections, warmupSeconds }));

  const baseline = results[0]!.reqPerSec;
  out(
    textTable(
      ['target', 'req/s', 'p50 ms', 'p99 ms', 'responses', 'non-2xx', 'errors', 'vs hello'],
      results.map((r) => [
        r.name,
        r.reqPerSec.toFixed(0),
        r.p50Ms.toFixed(2),
        r.p99Ms.toFixed(2),
        String(r.responses),
        String(r.non2xx),
        String(r.errors),
        `${((r.reqPerSec / baseline) * 100).toFixed(0)}%`,
      ]),
    ),
  );
  const share = results[1]!.reqPerSec / baseline;
  out('');
  out(`target: list >= ${listTarget * 100}% of hello-world req/s -> ${(share * 100).toFixed(0)}%: ${share >= listTarget ? 'MET' : 'NOT MET'}`);
}
