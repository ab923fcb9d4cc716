// Start to ready: a command started as a fresh process group until GET /readyz answers 200, polled
// every 10 ms; then the group is stopped (SIGTERM, SIGKILL after 5 s). `npm start` runs as the
// README says (npm's shell replaced by the server), each time on a fresh data folder.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from './freePort.js';

export interface StartCommand {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function answersReady(url: string): Promise<boolean> {
  try {
    const res = await fetch(url);
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

/** Milliseconds from spawn to the first 200 of /readyz. */
export async function startToReadyMs(start: StartCommand, timeoutMs = 60_000): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(start.command, start.args, {
    cwd: start.cwd,
    env: { ...process.env, ...start.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    // The whole group: npm and the server it execs (or spawned, on an npm that does not exec).
    const signal = (s: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, s);
      } catch {
        // already gone
      }
    };
    signal('SIGTERM');
    const killer = setTimeout(() => signal('SIGKILL'), 5_000);
    await exited;
    clearTimeout(killer);
  };
  try {
    while (performance.now() - started < timeoutMs) {
      if (child.exitCode !== null) throw new Error(`${start.command} ${start.args.join(' ')} exited with ${child.exitCode}:\n${stderr}`);
      if (await answersReady(`http://127.0.0.1:${port}/readyz`)) return performance.now() - started;
      await sleep(10);
    }
    throw new Error(`${start.command} ${start.args.join(' ')} was not ready within ${timeoutMs} ms:\n${stderr}`);
  } finally {
    await stop();
  }
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** `npm start` and the Fastify hello, alternated `runs` times each; medians in ms. */
export async function measureStartToReady(root: string, dir: string, runs: number): Promise<{ oursMs: number[]; fastifyMs: number[] }> {
  const oursMs: number[] = [];
  const fastifyMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const dataDir = path.join(dir, `start-${i}`);
    fs.mkdirSync(dataDir, { recursive: true });
    // Only where it keeps its data and how much it logs differ from a plain `npm start`.
    oursMs.push(
      await startToReadyMs({ command: 'npm', args: ['start', '--silent'], cwd: root, env: { DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn' } }),
    );
    fastifyMs.push(await startToReadyMs({ command: process.execPath, args: ['scripts/bench/fastifyHelloServer.js'], cwd: root, env: {} }));
  }
  return { oursMs, fastifyMs };
}
