// `npm run cluster`: two instances of the service on one PostgreSQL database and one Redis, on two
// ports, so that a person can try the scaled-out service: HTTP on one, STOMP on the other, a
// cancel or a logout on either. Defaults are the local services of our machines; CLUSTER_PORTS,
// DATABASE_URL, REDIS_URL and JWT_SECRET change them (every other setting passes through to both).
// The database is created when it does not exist; each instance migrates it at start. Ctrl-C
// stops both (SIGTERM to each, as a deployment's orchestrator would).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { stompServerPath } from '../generated/asyncapi.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = (line: string) => process.stdout.write(`${line}\n`);

const ports = (process.env.CLUSTER_PORTS ?? '8081,8082').split(',').map(Number);
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/trip_cluster';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/1';
// Every instance must sign and verify with the same secret; one per cluster run unless given.
const jwtSecret = process.env.JWT_SECRET ?? randomBytes(32).toString('hex');

/** Creates the database of DATABASE_URL when it does not exist (connecting to the server's `postgres` database). */
async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`DATABASE_URL names the database "${name}"; use letters, digits and _ for a cluster database`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE "${name}"`);
      out(`created the database ${name}`);
    }
  } finally {
    await client.end();
  }
}

function startInstance(label: string, port: number, extra: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts')], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, JWT_SECRET: jwtSecret, PORT: String(port), ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) out(`[${label}] ${line}`);
    });
  }
  return child;
}

async function main(): Promise<void> {
  if (ports.length !== 2 || ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) {
    throw new Error(`CLUSTER_PORTS must be two ports, e.g. 8081,8082 (got ${process.env.CLUSTER_PORTS})`);
  }
  await ensureDatabase(databaseUrl);
  // A first: it applies the migrations; B starts once A listens.
  const a = startInstance('A', ports[0]!, { INSTANCE_COUNT_HINT: '2' });
  await new Promise<void>((resolve, reject) => {
    a.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('"msg":"listening') && resolve());
    a.once('exit', (code) => reject(new Error(`instance A exited (${code}) before it listened`)));
  });
  const b = startInstance('B', ports[1]!, { INSTANCE_COUNT_HINT: '2' });
  const children = [a, b];
  out('');
  out(`cluster: A http://127.0.0.1:${ports[0]}  B http://127.0.0.1:${ports[1]}  (STOMP: ws://127.0.0.1:<port>${stompServerPath} on either)`);
  out(
    `         database ${new URL(databaseUrl).pathname.slice(1)} on ${new URL(databaseUrl).host}, Redis ${new URL(redisUrl).host}${new URL(redisUrl).pathname}; Ctrl-C stops both`,
  );
  out('');
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const exits = children.map((child) => new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? 1))));
  // One instance ending (a crash) ends the cluster, so nothing is left half running.
  await Promise.race(exits);
  stop();
  const codes = await Promise.all(exits);
  process.exitCode = codes.every((code) => code === 0) ? 0 : 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`cluster: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
