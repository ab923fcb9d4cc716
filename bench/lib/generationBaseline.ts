// Generations of an earlier commit in the same run as this tree's: `npm run bench -- generations
// --baseline <ref>` and the summary's generation row measure both sides in fresh child processes
// of bench/generations.ts (`--engine <row> --json`). The generations benchmark takes turns, round
// after round, so the machine's load falls on both alike; the summary runs the baseline once, then
// this tree once, so a change of load between the two runs shows in its ratio.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { checkOutBaseline } from './baselineCheckout.js';
import type { EngineRow, GenerationResult } from './generationRate.js';

const run = promisify(execFile);
const benchDir = path.resolve(import.meta.dirname, '..');

/** The values generationRate.ts takes from src/index.ts (its type-only names left out). */
function harnessImports(): string[] {
  const text = fs.readFileSync(path.join(benchDir, 'lib', 'generationRate.ts'), 'utf8');
  const names = /import \{([^}]*)\} from '\.\.\/\.\.\/src\/index\.js'/.exec(text)?.[1];
  if (!names) throw new Error('bench/lib/generationRate.ts does not import src/index.js');
  return names
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name && !name.startsWith('type '));
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Names the harness uses under another name than older trees declared them by (same function). */
const formerNames: Record<string, string> = {
  // the port over an opened engine; it took no statement sets before they were chosen per engine
  databasePortOf: 'databasePort',
};

/**
 * An src/index.ts for a tree from before there was one: each name the harness needs, exported from
 * the file of that tree that declares it, and createApp's too, so that this side loads the whole
 * service as the current side does through its src/index.ts.
 */
function indexFor(tree: string): string {
  const src = path.join(tree, 'src');
  const files = sourceFiles(src).map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));
  return [...harnessImports(), 'createApp']
    .map((name) => {
      const declaredAs = [name, ...(formerNames[name] ? [formerNames[name]] : [])];
      for (const candidate of declaredAs) {
        const declared = new RegExp(`^export (async )?(function\\*?|const|let|class) ${candidate}\\b`, 'm');
        const home = files.find((f) => declared.test(f.text));
        const exported = candidate === name ? name : `${candidate} as ${name}`;
        if (home) return `export { ${exported} } from './${path.relative(src, home.file).replace(/\.ts$/, '.js')}';\n`;
      }
      throw new Error(`the baseline's src/ declares no ${name}: the generation harness cannot run on it`);
    })
    .join('');
}

/**
 * A checkout of `ref` in a temp folder sharing this tree's node_modules, with this harness copied
 * over (the harness only calls what both trees have: the runner, the offline planner, the
 * repositories that create plans), so both sides measure the same work.
 */
export function generationBaseline(repoRoot: string, ref: string): { tree: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-bench-baseline-'));
  const { root: tree } = checkOutBaseline(repoRoot, ref, dir);
  fs.cpSync(path.join(benchDir, 'generations.ts'), path.join(tree, 'bench', 'generations.ts'));
  fs.cpSync(path.join(benchDir, 'lib'), path.join(tree, 'bench', 'lib'), { recursive: true });
  const index = path.join(tree, 'src', 'index.ts');
  if (!fs.existsSync(index)) fs.writeFileSync(index, indexFor(tree));
  return { tree, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** One row measured by a child process in `tree` (a fresh process each time: no warm caches carried over); BENCH_PLANS plans unless `plans` is given. */
export async function generationInChild(tree: string, row: EngineRow, plans?: number): Promise<GenerationResult | null> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(tree, 'bench', 'generations.ts'), '--engine', row, '--json'], {
    cwd: tree,
    env: plans === undefined ? process.env : { ...process.env, BENCH_PLANS: String(plans) },
    maxBuffer: 16 * 1024 * 1024,
  });
  const [result] = JSON.parse(stdout.trim().split('\n').at(-1)!) as GenerationResult[];
  return result ?? null;
}
