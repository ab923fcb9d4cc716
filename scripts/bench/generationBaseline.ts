// Generations of an earlier commit in the same run as this tree's: `npm run bench:generations --
// --baseline <ref>` and `npm run bench`'s generation row measure both sides in fresh child processes
// of scripts/benchGenerations.ts (`--engine <row> --json`). bench:generations takes turns, round
// after round, so the machine's load falls on both alike; `npm run bench` runs the baseline once,
// then this tree once, so a change of load between the two runs shows in its ratio.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { checkOutBaseline } from './baselineCheckout.js';
import type { EngineRow, GenerationResult } from './generationRate.js';

const run = promisify(execFile);
const scriptsDir = path.resolve(import.meta.dirname, '..');

/**
 * A checkout of `ref` in a temp folder sharing this tree's node_modules, with this harness copied
 * over its own (the harness only calls what both trees have: the runner, the offline planner, the
 * repositories that create plans), so both sides measure the same work.
 */
export function generationBaseline(repoRoot: string, ref: string): { tree: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-bench-baseline-'));
  const { root: tree } = checkOutBaseline(repoRoot, ref, dir);
  fs.cpSync(path.join(scriptsDir, 'benchGenerations.ts'), path.join(tree, 'scripts', 'benchGenerations.ts'));
  fs.cpSync(path.join(scriptsDir, 'bench'), path.join(tree, 'scripts', 'bench'), { recursive: true });
  return { tree, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** One row measured by a child process in `tree` (a fresh process each time: no warm caches carried over); BENCH_PLANS plans unless `plans` is given. */
export async function generationInChild(tree: string, row: EngineRow, plans?: number): Promise<GenerationResult | null> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(tree, 'scripts', 'benchGenerations.ts'), '--engine', row, '--json'], {
    cwd: tree,
    env: plans === undefined ? process.env : { ...process.env, BENCH_PLANS: String(plans) },
    maxBuffer: 16 * 1024 * 1024,
  });
  const [result] = JSON.parse(stdout.trim().split('\n').at(-1)!) as GenerationResult[];
  return result ?? null;
}
