// What every benchmark script that starts servers shares: a temp folder and the list of child
// servers it started, both removed by cleanUp() at the end, or on SIGINT / SIGTERM (exit 130), so
// an interrupted run leaves no server holding a port and no seeded database behind.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildServer } from './childServer.js';

export interface BenchRun {
  dir: string;
  /** push a server here once started; cleanUp() stops whatever is still in it */
  children: ChildServer[];
  cleanUp: () => Promise<void>;
}

export function benchRun(prefix: string): BenchRun {
  const children: ChildServer[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const cleanUp = async () => {
    await Promise.all(children.splice(0).map((child) => child.stop()));
    fs.rmSync(dir, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void cleanUp().finally(() => process.exit(130));
    });
  }
  return { dir, children, cleanUp };
}

/**
 * Runs a script's main: the exit code it returns, if any, is the process's; a failure is printed with
 * its stack and sets exit code 1; `finish` runs either way.
 */
export async function runMain(main: () => Promise<void | number>, finish: () => Promise<void> | void): Promise<void> {
  try {
    const code = await main();
    if (typeof code === 'number') process.exitCode = code;
  } catch (error) {
    process.stderr.write(`benchmark failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  } finally {
    await finish();
  }
}
