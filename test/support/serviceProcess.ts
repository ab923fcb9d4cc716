// The real service as a child process: from the sources (node --import tsx src/main.ts, what `npm
// run dev` runs) or built (node dist/server/main.js, what `npm start` runs), for tests of start-up
// refusals, of stopping, and of several instances. Time limits here only bound a hang; no test
// asserts how fast anything was.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import path from 'node:path';
import { staleBuildInput } from '../../src/composition/buildFreshness.js';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

/** A clean environment, as on a fresh shell: nothing from the test runner (VITEST, NODE_ENV) leaks in. */
export function serviceEnv(env: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env };
}

export function spawnService(env: Record<string, string>, args: string[] = [], options: SpawnOptions = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: repoRoot,
    env: serviceEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options,
  });
}

/**
 * The built service, for tests whose processes need not run through tsx: it starts without
 * compiling the sources again, several times faster on a loaded machine. The caller's
 * `beforeAll(ensureFreshBuild)` (freshBuild.ts) builds dist/ when a source is newer; a build that
 * is still older than a source here is refused rather than tested.
 */
export function spawnBuiltService(env: Record<string, string>, args: string[] = [], options: SpawnOptions = {}): ChildProcess {
  const stale = staleBuildInput(repoRoot);
  if (stale !== null) throw new Error(`dist/ is older than ${stale}: call ensureFreshBuild() (test/support/freshBuild.ts) before spawning the built service`);
  return spawn(process.execPath, ['dist/server/main.js', ...args], {
    cwd: repoRoot,
    env: serviceEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options,
  });
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Resolves when the child exits; rejects (and kills it) after `limitMs`. */
export function exitOf(child: ChildProcess, limitMs: number): Promise<Exit> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`still running after ${limitMs} ms; stderr: ${stderr.slice(-2000)}`));
    }, limitMs);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Resolves with the first stdout line matching `pattern` (the process keeps running). */
export function lineOf(child: ChildProcess, pattern: RegExp, limitMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`no line matching ${pattern} within ${limitMs} ms: ${buffered.slice(-2000)}`)), limitMs);
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      const line = buffered.split('\n').find((l) => pattern.test(l));
      if (line) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        resolve(line);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', () => reject(new Error(`exited before a line matching ${pattern}: ${buffered.slice(-2000)}`)));
  });
}
