// A Redis server of a test's own (the shared one must never be stopped): `redis-server` on a free
// loopback port, keeping nothing on disk, so that stop() then start() is a Redis that restarted and
// lost every key, as a Redis without persistence (or a failover to an empty replica) does.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { describe } from 'vitest';
import { postgresForTests } from './postgres.js';

const installed = spawnSync('redis-server', ['--version']).status === 0;
if (!installed) console.warn('tests with a Redis of their own skipped: redis-server is not installed (apt-get install -y redis-server)');

/** A suite that needs PostgreSQL and the `redis-server` binary; skipped otherwise (one line says why). */
export const describeOnPostgresWithOwnRedis = describe.skipIf(!postgresForTests.available || !installed);

// A test process that dies must not leave its servers behind.
const running = new Set<ChildProcess>();
process.once('exit', () => running.forEach((child) => child.kill('SIGKILL')));

export interface OwnRedis {
  port: number;
  /** redis://127.0.0.1:<port>/<db> */
  url(db?: number): string;
  /** Kills the server (SIGKILL): connections drop, new ones are refused, every key is gone. */
  stop(): Promise<void>;
  /** Starts it again, empty, on the same port; resolves once it answers. */
  start(): Promise<void>;
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let server: ChildProcess | null = null;

  async function start(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    server = child;
    running.add(child);
    child.once('exit', () => running.delete(child));
    for (let waited = 0; ; waited += 20) {
      if (child.exitCode !== null) throw new Error(`redis-server on port ${port} exited with ${child.exitCode}`);
      if (await answers(port)) return;
      if (waited > 10_000) throw new Error(`redis-server on port ${port} did not answer within 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function stop(): Promise<void> {
    const child = server;
    server = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  await start();
  return { port, url: (db = 0) => `redis://127.0.0.1:${port}/${db}`, stop, start };
}

/** A loopback port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** PING answered with PONG. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
    socket.once('error', () => done(false));
    socket.setTimeout(1000, () => done(false));
  });
}
