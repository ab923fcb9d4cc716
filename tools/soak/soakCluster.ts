// The deployment the soak runs against: three instances of the built service (what `npm start`
// runs) on one fresh PostgreSQL database and one Redis of the soak's own, each instance reaching
// both through TCP proxies of its own, so that a fault can hit every instance (the database pauses)
// or one (a black hole between one instance and Redis). An instance that exits without the soak
// having stopped it is a crash.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import path from 'node:path';
import { startTcpProxy, throughProxy, type TcpProxy } from '../../test/support/tcpProxy.js';
import { freePort } from '../../bench/lib/freePort.js';

export interface SoakInstance {
  readonly label: string;
  readonly baseUrl: string;
  readonly postgres: TcpProxy;
  readonly redis: TcpProxy;
  running(): boolean;
}

export interface SoakCluster {
  readonly instances: SoakInstance[];
  /** exits nobody asked for, with the instance and its exit code or signal */
  readonly crashes: string[];
  kill9(label: string): Promise<void>;
  /** SIGTERM, and waits for the process to end (as an orchestrator's rolling restart would) */
  terminate(label: string): Promise<void>;
  /** starts a stopped instance again on its port; resolves once its /readyz answers 200 */
  restart(label: string): Promise<void>;
  stop(): Promise<void>;
}

export interface SoakClusterSettings {
  root: string;
  entry: string;
  logDir: string;
  databaseUrl: string;
  redisPort: number;
  jwtSecret: string;
  /** settings every instance gets on top of the soak's defaults */
  env: Record<string, string>;
}

interface InstanceState extends SoakInstance {
  port: number;
  child: ChildProcess | null;
  stopping: boolean;
  log: WriteStream;
}

const LABELS = ['A', 'B', 'C'];

async function ready(baseUrl: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${baseUrl} was not ready within ${timeoutMs} ms`);
}

export async function startSoakCluster(settings: SoakClusterSettings): Promise<SoakCluster> {
  const crashes: string[] = [];
  const instances: InstanceState[] = [];
  const database = new URL(settings.databaseUrl);

  function spawnInstance(instance: InstanceState): void {
    const env = {
      ...process.env,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(instance.port),
      DATABASE_URL: throughProxy(settings.databaseUrl, instance.postgres),
      REDIS_URL: `redis://127.0.0.1:${instance.redis.port}/0`,
      JWT_SECRET: settings.jwtSecret,
      INSTANCE_COUNT_HINT: String(LABELS.length),
      ...settings.env,
    };
    const child = spawn(process.execPath, [settings.entry], { cwd: settings.root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(instance.log, { end: false });
    child.stderr.pipe(instance.log, { end: false });
    instance.child = child;
    instance.stopping = false;
    child.once('exit', (code, signal) => {
      if (instance.child === child) instance.child = null;
      if (!instance.stopping) crashes.push(`${instance.label} exited by itself (${signal ?? `code ${code}`})`);
    });
  }

  const exited = (child: ChildProcess) =>
    child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));

  for (const label of LABELS) {
    const postgres = await startTcpProxy({ host: database.hostname, port: Number(database.port || 5432) });
    const redis = await startTcpProxy({ host: '127.0.0.1', port: settings.redisPort });
    const port = await freePort();
    const instance: InstanceState = {
      label,
      port,
      baseUrl: `http://127.0.0.1:${port}`,
      postgres,
      redis,
      child: null,
      stopping: false,
      log: createWriteStream(path.join(settings.logDir, `instance-${label}.log`), { flags: 'a' }),
      running: () => instance.child !== null,
    };
    instances.push(instance);
  }
  // One at a time: the first migrates the fresh database, the others find nothing left to apply.
  for (const instance of instances) {
    spawnInstance(instance);
    await ready(instance.baseUrl, 60_000);
  }

  const byLabel = (label: string) => {
    const instance = instances.find((i) => i.label === label);
    if (!instance) throw new Error(`no instance ${label}`);
    return instance;
  };

  async function stopChild(instance: InstanceState, signal: NodeJS.Signals): Promise<void> {
    const child = instance.child;
    if (!child) return;
    instance.stopping = true;
    child.kill(signal);
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited(child);
    clearTimeout(killer);
  }

  return {
    instances,
    crashes,
    kill9: (label) => stopChild(byLabel(label), 'SIGKILL'),
    terminate: (label) => stopChild(byLabel(label), 'SIGTERM'),
    async restart(label) {
      const instance = byLabel(label);
      if (instance.child) return;
      spawnInstance(instance);
      await ready(instance.baseUrl, 60_000);
    },
    async stop() {
      await Promise.all(instances.map((i) => stopChild(i, 'SIGTERM')));
      for (const instance of instances) {
        await instance.postgres.close();
        await instance.redis.close();
        instance.log.end();
      }
    },
  };
}
