// Our built server against the Fastify + ajv peer (bench/peers/fastifyListServer.ts) on one seeded
// database of either engine, measured in turns (measureInTurns.ts): each round ours, then the peer,
// on the list route, then on the detail route. Production settings for both (deploymentEnv.ts and the
// peer's own); the detail route asks for ids spread over the member's plans, the same sequence for
// both. Both servers must answer the first list page and a detail alike first. Stops both servers
// and drops the PostgreSQL database before it returns.
import path from 'node:path';
import { loadConfig } from '../../src/index.js';
import { benchPostgres } from './benchPostgres.js';
import { freshBuiltServer } from './builtServer.js';
import { startChildServer, type ChildServer } from './childServer.js';
import { deploymentEnv } from './deploymentEnv.js';
import { freePort } from './freePort.js';
import { listPath } from './listThroughput.js';
import { measureInTurns, toMeasure, type Measured, type TurnSettings } from './measureInTurns.js';
import { seededRandom } from './seedTrips.js';
import { seedServerDb } from './seedServerDb.js';

export const fastifyPeerEntry = 'bench/peers/fastifyListServer.ts';
export type Engine = 'sqlite' | 'postgres';
export type PeerRoute = 'list' | 'get';

/** The peer's settings: the server's database (file or postgres:// URL, as the engine is) and JWT secret, production mode. */
export function fastifyPeerEnv(serverEnv: Record<string, string>, engine: Engine): Record<string, string> {
  const database: Record<string, string> = engine === 'sqlite' ? { DATABASE_FILE: serverEnv.DATABASE_URL! } : { DATABASE_URL: serverEnv.DATABASE_URL! };
  return { NODE_ENV: 'production', ...database, JWT_SECRET: serverEnv.JWT_SECRET! };
}

/** `GET /api/v1/trips/{id}` of every one of `ids`, in one shuffled order that is the same on every run (seeded). */
export function detailPaths(ids: readonly number[]): string[] {
  const random = seededRandom(7);
  const order = [...ids];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order.map((id) => `/api/v1/trips/${id}`);
}

/** Throws unless every url answers 200 with the same `data`: a comparison of different answers means nothing. */
export async function sameAnswers(urls: { name: string; url: string }[], headers: Record<string, string>): Promise<void> {
  const answers = await Promise.all(
    urls.map(async ({ name, url }) => {
      const res = await fetch(url, { headers });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${name}: ${url} answered ${res.status}: ${text.slice(0, 300)}`);
      return JSON.stringify((JSON.parse(text) as { data: unknown }).data);
    }),
  );
  const differing = urls.filter((_u, i) => answers[i] !== answers[0]);
  if (differing.length > 0) throw new Error(`${differing.map((u) => u.name).join(', ')} answered ${urls[0]!.url} differently than ${urls[0]!.name}`);
}

export interface RoutePair {
  ours: Measured;
  fastify: Measured;
}

export interface VsFastify {
  engine: Engine;
  plans: number;
  settings: TurnSettings;
  list?: RoutePair;
  get?: RoutePair;
  /** the machine's load after each round */
  loads: string[];
}

export async function measureVsFastify(
  opts: TurnSettings & {
    root: string;
    dir: string;
    engine: Engine;
    plans: number;
    routes: PeerRoute[];
    started: (child: ChildServer) => void;
    progress?: (line: string) => void;
  },
): Promise<VsFastify> {
  const { root, engine, routes } = opts;
  const postgres = engine === 'postgres' ? await benchPostgres() : undefined;
  if (postgres && !postgres.available) throw new Error(postgres.reason);
  const servers: ChildServer[] = [];
  try {
    const databaseUrl = postgres?.available ? postgres.url : path.join(opts.dir, 'vs-fastify.sqlite');
    const serverEnv = deploymentEnv({ dataDir: opts.dir, databaseUrl });
    const seeded = await seedServerDb(loadConfig(serverEnv), opts.plans);
    const auth = { Authorization: `Bearer ${seeded.accessToken}` };
    const start = async (entry: string, env: Record<string, string>) => {
      const server = await startChildServer({ entry, cwd: root, port: await freePort(), env, readyPath: '/readyz' });
      servers.push(server);
      opts.started(server);
      return server;
    };
    const ours = await start(freshBuiltServer(root, opts.progress), serverEnv);
    const fastify = await start(fastifyPeerEntry, fastifyPeerEnv(serverEnv, engine));
    const paths = detailPaths(seeded.tripPlanIds);
    const pair = (route: PeerRoute): RoutePair => {
      const target = (server: ChildServer) =>
        route === 'list'
          ? { name: route, url: `${server.baseUrl}${listPath}`, headers: auth }
          : { name: route, url: `${server.baseUrl}${paths[0]}`, headers: auth, paths };
      return { ours: toMeasure('ours', ours, target(ours)), fastify: toMeasure('Fastify + ajv', fastify, target(fastify)) };
    };
    const pairs = new Map(routes.map((route) => [route, pair(route)]));
    for (const { ours: o, fastify: f } of pairs.values()) await sameAnswers([o.target, f.target], auth);
    const loads = await measureInTurns(
      [...pairs.values()].flatMap((p) => [p.ours, p.fastify]),
      opts,
      (round, load) => opts.progress?.(`   round ${round + 1} of ${opts.rounds} done, load ${load}`),
    );
    const settings = { rounds: opts.rounds, seconds: opts.seconds, warmupSeconds: opts.warmupSeconds, connections: opts.connections };
    return { engine, plans: opts.plans, settings, list: pairs.get('list'), get: pairs.get('get'), loads };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    if (postgres?.available) await postgres.drop();
  }
}
