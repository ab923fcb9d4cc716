// One start of the service, timed: spawn a command on a fresh data folder, poll /readyz until it
// answers 200, note the wall time and the CPU time the started processes used until then (the
// whole process tree: npm and the node it execs, or node alone), then stop it (SIGTERM to its
// process group) and remove the folder. The CPU time is the measure load disturbs least: other work
// on the machine delays a start but does not make it do more work. `npm run bench -- startup` and
// `npm run bench -- summary` (npm start against a Fastify hello's npm start) both start through here.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cpuSeconds } from './processCpu.js';
import { freePort } from './freePort.js';
import { percentile } from './loadTest.js';

export interface StartCommand {
  /** what the table calls it */
  name: string;
  command: string;
  args: string[];
  /** the folder it starts in, relative to the checkout (default: the checkout itself) */
  cwd?: string;
}

export interface StartMeasure {
  /** from spawn to the first 200 of /readyz */
  readyMs: number;
  /** user + system CPU of the process tree until then; null without procfs */
  cpuMs: number | null;
}

/**
 * The start goal (docs/performance.md, "The performance table", `start_to_ready`): `npm start` until
 * /readyz 200 at most this many times the Fastify hello's `npm start` in the same run.
 */
export const startupGoalRatio = 1.5;

const POLL_MS = 5;
const READY_LIMIT_MS = 60_000;
const STOP_LIMIT_MS = 10_000;

/** The pid and every descendant's (from /proc/<pid>/task/<tid>/children). */
function processTree(pid: number): number[] {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    const taskDir = `/proc/${pids[i]}/task`;
    let tasks: string[];
    try {
      tasks = fs.readdirSync(taskDir);
    } catch {
      continue; // it ended meanwhile
    }
    for (const task of tasks) {
      try {
        for (const child of fs.readFileSync(`${taskDir}/${task}/children`, 'utf8').split(' ').filter(Boolean)) pids.push(Number(child));
      } catch {
        // the task ended meanwhile
      }
    }
  }
  return pids;
}

function treeCpuMs(pid: number): number | null {
  let total = 0;
  for (const member of processTree(pid)) {
    const seconds = cpuSeconds(member);
    if (seconds === null) return null;
    total += seconds;
  }
  return total * 1000;
}

/** 200 from /readyz, or false (refused, not ready yet, or any other answer). */
async function readyAnswers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url);
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

export async function measureStart(start: StartCommand, cwd: string, env: Record<string, string>): Promise<StartMeasure> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-startup-'));
  const port = await freePort();
  const startedAt = performance.now();
  // A group of its own, so that the stop below reaches npm's child too.
  const child = spawn(start.command, start.args, {
    cwd: start.cwd === undefined ? cwd : path.join(cwd, start.cwd),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? os.tmpdir(), ...env, DATA_DIR: dataDir, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // The group may be gone already (its leader exited, or the SIGTERM did its work before the timer).
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      signalGroup('SIGTERM');
      const killer = setTimeout(() => signalGroup('SIGKILL'), STOP_LIMIT_MS);
      await exited;
      clearTimeout(killer);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const url = `http://127.0.0.1:${port}/readyz`;
    while (performance.now() - startedAt < READY_LIMIT_MS) {
      if (child.exitCode !== null) throw new Error(`${start.name} exited with ${child.exitCode} before it was ready:\n${output}`);
      if (await readyAnswers(url)) {
        const readyMs = performance.now() - startedAt;
        return { readyMs, cpuMs: treeCpuMs(child.pid!) };
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    throw new Error(`${start.name} was not ready within ${READY_LIMIT_MS} ms:\n${output}`);
  } finally {
    await stop();
  }
}

/** What `npm run bench -- startup` and `npm run bench -- summary` start the service with (beyond DATA_DIR and PORT). */
export const startEnv = { NODE_ENV: 'development', LOG_LEVEL: 'info' };

/** `npm start` as the README says (it runs the bundle, `node dist/server/main.js`). */
export const npmStart: StartCommand = { name: 'npm start (compiled)', command: 'npm', args: ['start'] };

/** What `npm start` execs, without npm. */
export const nodeStart: StartCommand = { name: 'node dist/server/main.js', command: process.execPath, args: ['dist/server/main.js'] };

/** The start-up peer: the smallest Fastify app with a /readyz, plain JavaScript under node. */
export const fastifyHello: StartCommand = { name: 'Fastify hello (node, plain JS)', command: process.execPath, args: ['bench/peers/fastifyHelloServer.js'] };

/**
 * The same Fastify hello launched as ours is, by `npm start` (bench/peers/fastifyHello/package.json
 * execs node on it): npm's own start, some 0.1-0.2 s of CPU, is then on both sides of the ratio.
 */
export const fastifyHelloNpmStart: StartCommand = { name: 'Fastify hello (npm start)', command: 'npm', args: ['start'], cwd: 'bench/peers/fastifyHello' };

export interface StartComparison {
  /** `npm start` */
  ours: StartupResult;
  /** the Fastify hello's `npm start`: the goal's peer */
  fastify: StartupResult;
  /** node on our bundle and node on the hello: the same comparison without npm */
  oursNode: StartupResult;
  fastifyNode: StartupResult;
}

/**
 * Ours and the Fastify hello, each by `npm start` and by node alone, taking turns, `runs` starts
 * each (after one warm-up start of each, not counted, unless told not to).
 */
export async function measureStartVsFastify(root: string, runs: number, warmUp = true): Promise<StartComparison> {
  const contenders = [npmStart, fastifyHelloNpmStart, nodeStart, fastifyHello];
  const measures = contenders.map(() => [] as StartMeasure[]);
  // The file-system cache, as bench startup does.
  if (warmUp) for (const start of contenders) await measureStart(start, root, startEnv);
  for (let i = 0; i < runs; i++) for (const [at, start] of contenders.entries()) measures[at]!.push(await measureStart(start, root, startEnv));
  const [ours, fastify, oursNode, fastifyNode] = contenders.map((start, at) => summary(start.name, measures[at]!));
  return { ours: ours!, fastify: fastify!, oursNode: oursNode!, fastifyNode: fastifyNode! };
}

export interface StartupResult {
  name: string;
  runs: number;
  readyMs: { median: number; p90: number; min: number };
  /** null without procfs */
  cpuMs: { median: number; p90: number } | null;
}

export function summary(name: string, measures: StartMeasure[]): StartupResult {
  const sorted = (values: number[]) => Float64Array.from(values).sort();
  const ready = sorted(measures.map((m) => m.readyMs));
  const cpu = measures.every((m) => m.cpuMs !== null) ? sorted(measures.map((m) => m.cpuMs!)) : null;
  return {
    name,
    runs: measures.length,
    readyMs: { median: percentile(ready, 0.5), p90: percentile(ready, 0.9), min: ready[0]! },
    cpuMs: cpu && { median: percentile(cpu, 0.5), p90: percentile(cpu, 0.9) },
  };
}
