// The list row of `npm run bench -- summary`: `GET /api/v1/trips?size=20` of our server (built, as `npm start` runs it), of the Fastify + ajv
// peer and of the Hono + openapi-backend peer, over one seeded SQLite file, next to a bare Hono
// hello-world; each server in its own process, one after the other. Each is warmed up, then loaded
// with autocannon while its process's CPU time is read before and after: CPU per request is that
// difference over the responses, the measure other work on the machine moves least.
import path from 'node:path';
import { loadConfig } from '../../src/index.js';
import { startChildServer, type ChildServer } from './childServer.js';
import { freePort } from './freePort.js';
import { runLoad, type LoadTarget } from './loadTest.js';
import { cpuSeconds } from './processCpu.js';
import { seedServerDb } from './seedServerDb.js';
import { deploymentEnv } from './deploymentEnv.js';
import { freshBuiltServer } from './builtServer.js';

export const listPath = '/api/v1/trips?size=20';

export interface ListSettings {
  root: string;
  dir: string;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  plans: number;
  started: (child: ChildServer) => void;
}

export interface ServerLoad {
  reqPerSec: number;
  /** the server process's CPU time over the measured run ÷ its responses; null without procfs */
  cpuUsPerRequest: number | null;
  p99Ms: number;
  responses: number;
  /** non-2xx responses and socket errors: must be 0 for the numbers to mean anything */
  failures: number;
}

export interface ListThroughput {
  hello: ServerLoad;
  ours: ServerLoad;
  fastify: ServerLoad;
  openapiBackend: ServerLoad;
}

async function measureServer(server: ChildServer, target: LoadTarget, opts: ListSettings): Promise<ServerLoad> {
  await runLoad(target, { seconds: opts.warmupSeconds, connections: opts.connections, warmupSeconds: 0 });
  const cpuBefore = cpuSeconds(server.pid);
  const result = await runLoad(target, { seconds: opts.seconds, connections: opts.connections, warmupSeconds: 0 });
  const cpuAfter = cpuSeconds(server.pid);
  return {
    reqPerSec: result.reqPerSec,
    cpuUsPerRequest: cpuBefore === null || cpuAfter === null || result.responses === 0 ? null : ((cpuAfter - cpuBefore) * 1e6) / result.responses,
    p99Ms: result.p99Ms,
    responses: result.responses,
    failures: result.non2xx + result.errors,
  };
}

/** The first page's body: every implementation must answer the same items. */
async function firstPage(url: string, headers: Record<string, string>): Promise<unknown> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url}: expected 200, got ${res.status}: ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { data: unknown }).data;
}

export async function measureListThroughput(opts: ListSettings): Promise<ListThroughput> {
  const databaseFile = path.join(opts.dir, 'list.sqlite');
  const serverEnv = deploymentEnv({ dataDir: opts.dir, databaseUrl: databaseFile });
  // The peers check tokens with the same secret as our server.
  const jwtSecret = serverEnv.JWT_SECRET!;
  const seeded = await seedServerDb(loadConfig(serverEnv), opts.plans);
  const auth = { Authorization: `Bearer ${seeded.accessToken}` };
  const peerEnv = { NODE_ENV: 'production', DATABASE_FILE: databaseFile, JWT_SECRET: jwtSecret };

  const run = async (
    entry: string,
    env: Record<string, string>,
    readyPath: string,
    target: (baseUrl: string) => LoadTarget,
    check?: (baseUrl: string) => Promise<void>,
  ) => {
    const server = await startChildServer({ entry, cwd: opts.root, port: await freePort(), env, readyPath });
    opts.started(server);
    try {
      await check?.(server.baseUrl);
      return await measureServer(server, target(server.baseUrl), opts);
    } finally {
      await server.stop();
    }
  };
  const list = (name: string) => (baseUrl: string) => ({ name, url: `${baseUrl}${listPath}`, headers: auth });
  let expected: string | undefined;
  const samePage = (name: string) => async (baseUrl: string) => {
    const page = JSON.stringify(await firstPage(`${baseUrl}${listPath}`, auth));
    expected ??= page;
    if (page !== expected) throw new Error(`${name} answered a different first page than our server:\n${page.slice(0, 300)}\n${expected.slice(0, 300)}`);
  };

  const hello = await run('bench/peers/helloServer.ts', {}, '/', (baseUrl) => ({ name: 'hello', url: `${baseUrl}/` }));
  const ours = await run(freshBuiltServer(opts.root), serverEnv, '/readyz', list('ours'), samePage('our server'));
  const fastify = await run('bench/peers/fastifyListServer.ts', peerEnv, '/readyz', list('fastify'), samePage('Fastify + ajv'));
  const openapiBackend = await run('bench/peers/openapiBackendListServer.ts', peerEnv, '/readyz', list('openapi-backend'), samePage('Hono + openapi-backend'));
  return { hello, ours, fastify, openapiBackend };
}
