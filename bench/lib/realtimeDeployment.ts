// The server side of one realtime benchmark level. `single`: one instance, embedded (SQLite file in
// a fresh directory, in-memory plan log). `cluster`: two instances on a fresh PostgreSQL database
// and one Redis database number: A (GENERATION_CONCURRENCY=0) takes every HTTP request and every
// WebSocket, B runs every generation, so each message crosses Redis from B to A.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { benchPostgres } from './benchPostgres.js';
import { startChildServer, type ChildServer } from './childServer.js';
import { freePort } from './freePort.js';

export type DeploymentKind = 'single' | 'cluster';

export interface Deployment {
  /** where the users send HTTP and open their WebSockets */
  clientServer: ChildServer;
  /** every server process, for CPU time */
  servers: ChildServer[];
  stop(): Promise<void>;
}

export interface DeploymentSettings {
  root: string;
  /** an empty directory for the SQLite file of `single` */
  dir: string;
  generationConcurrency: number;
  /** `redis://host:port/n` for `cluster`: the database n must be empty, and is flushed afterwards */
  redisUrl: string;
  started(child: ChildServer): void;
}

const commonEnv = (generationConcurrency: number) => ({
  NODE_ENV: 'development',
  HOST: '127.0.0.1',
  PLANNER: 'offline',
  PLANNER_DELAY_MS: '0',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '0',
  // Every user comes from 127.0.0.1: one address with a WebSocket and HTTP sockets per user.
  MAX_CONNECTIONS_PER_ADDRESS: '1000000',
  RESPONSE_VALIDATION: 'off',
  GENERATION_CONCURRENCY: String(generationConcurrency),
});

export function describeDeployment(kind: DeploymentKind, settings: Pick<DeploymentSettings, 'generationConcurrency' | 'redisUrl'>): string {
  return kind === 'single'
    ? `1 instance, embedded (SQLite, in-memory plan log), GENERATION_CONCURRENCY=${settings.generationConcurrency}`
    : `2 instances, PostgreSQL + Redis ${new URL(settings.redisUrl).pathname}: A holds the clients (GENERATION_CONCURRENCY=0), B generates (${settings.generationConcurrency})`;
}

export async function startDeployment(kind: DeploymentKind, settings: DeploymentSettings): Promise<Deployment> {
  if (kind === 'single') {
    const server = await startChildServer({
      entry: 'src/main.ts',
      cwd: settings.root,
      port: await freePort(),
      readyPath: '/readyz',
      env: { ...commonEnv(settings.generationConcurrency), DATA_DIR: settings.dir },
    });
    settings.started(server);
    return { clientServer: server, servers: [server], stop: () => server.stop() };
  }
  return startCluster(settings);
}

async function startCluster(settings: DeploymentSettings): Promise<Deployment> {
  const redis = new Redis(settings.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  await redis.connect();
  // Plan ids restart at 1 in a fresh database, so another run's streams in this database would be read as ours.
  const keys = await redis.dbsize();
  if (keys > 0) {
    redis.disconnect();
    throw new Error(`Redis ${settings.redisUrl} holds ${keys} keys; the cluster benchmark needs an empty database number (--redis-db)`);
  }
  const postgres = await benchPostgres();
  if (!postgres.available) {
    redis.disconnect();
    throw new Error(postgres.reason);
  }
  const servers: ChildServer[] = [];
  const stop = async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await postgres.drop();
    await redis.flushdb();
    redis.disconnect();
  };
  try {
    const env = { DATABASE_URL: postgres.url, REDIS_URL: settings.redisUrl, JWT_SECRET: randomBytes(32).toString('hex'), INSTANCE_COUNT_HINT: '2' };
    // A first: it applies the migrations, B starts on a migrated database.
    for (const concurrency of [0, settings.generationConcurrency]) {
      const server = await startChildServer({
        entry: 'src/main.ts',
        cwd: settings.root,
        port: await freePort(),
        readyPath: '/readyz',
        env: { ...commonEnv(concurrency), ...env },
      });
      servers.push(server);
      settings.started(server);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { clientServer: servers[0]!, servers, stop };
}
