// `npm run bench -- startup [--runs 10] [--baseline REF] [--no-build] [--json]`: time from start to the first 200
// of /readyz, each start on a fresh data folder (migrations applied, JWT secret generated), for
// the compiled start (`npm start`, and its node command alone: the bundle in dist/server/), the
// compiled files before bundling (`node dist/src/main.js`), the tsx start (`npm run dev`, and its
// node command alone) and the Fastify hello the goal compares with, by `npm start` and by node,
// side by side. The starts take turns (one of each, N times), so load on the machine falls on all
// of them alike. Prints median and p90 of the wall time and of the CPU time the started processes
// used until ready (what load disturbs least), with the machine and its load, and the goal's ratio
// (npm start ÷ the hello's npm start) with node ÷ node beside it. Builds dist/ first unless
// --no-build. With --baseline REF (a commit, branch or tag), the service of that commit takes turns
// too, started as its dist/ (built in a temporary copy, with this checkout's node_modules; its
// bundle when it has one) or, before the build existed, with tsx: before and after under the same
// load. `benchStartup()` is the same as a function; `npm run bench -- summary`'s start row does not
// use it but times the four starts of the goal (measureStartVsFastify in bench/lib/startupRun.ts).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkOutBaseline } from './lib/baselineCheckout.js';
import { loadLine, machineLines } from './lib/machine.js';
import {
  fastifyHello,
  fastifyHelloNpmStart,
  measureStart,
  nodeStart,
  npmStart,
  startEnv,
  startupGoalRatio,
  summary,
  type StartCommand,
  type StartMeasure,
  type StartupResult,
} from './lib/startupRun.js';
import { textTable } from './lib/textTable.js';

const repoRoot = path.resolve(import.meta.dirname, '..');

/** The first four are the goal's: ours and the hello, by npm start and by node. */
export const startCommands: StartCommand[] = [
  npmStart,
  fastifyHelloNpmStart,
  nodeStart,
  fastifyHello,
  { name: 'node dist/src/main.js (compiled, not bundled)', command: process.execPath, args: ['dist/src/main.js'] },
  { name: 'npm run dev (tsx)', command: 'npm', args: ['run', 'dev'] },
  { name: 'node --import tsx src/main.ts', command: process.execPath, args: ['--import', 'tsx', 'src/main.ts'] },
];

interface Contender {
  start: StartCommand;
  cwd: string;
}

/** The service of commit `ref` in a temporary folder, ready to start (by node, and by its `npm start` once it had a build); and how to remove it. */
function baselineContenders(ref: string): { contenders: Contender[]; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-startup-baseline-'));
  const baseline = checkOutBaseline(repoRoot, ref, dir);
  const built = fs.existsSync(path.join(baseline.root, 'tsconfig.build.json'));
  if (built) execFileSync('npm', ['run', '--silent', 'build'], { cwd: baseline.root, stdio: 'inherit' });
  const entry = fs.existsSync(path.join(baseline.root, 'dist', 'server', 'main.js')) ? 'dist/server/main.js' : 'dist/src/main.js';
  const args = built ? [entry] : ['--import', 'tsx', 'src/main.ts'];
  return {
    contenders: [
      ...(built ? [{ start: { name: `${ref}: npm start`, command: 'npm', args: ['start'] }, cwd: baseline.root }] : []),
      { start: { name: `${ref}: node ${args.join(' ')}`, command: process.execPath, args }, cwd: baseline.root },
    ],
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export async function benchStartup(opts: { runs: number; build: boolean; baseline?: string; onProgress?: (line: string) => void }): Promise<StartupResult[]> {
  if (opts.build) execFileSync('npm', ['run', '--silent', 'build'], { cwd: repoRoot, stdio: 'inherit' });
  const baseline = opts.baseline ? baselineContenders(opts.baseline) : null;
  try {
    const contenders: Contender[] = [...startCommands.map((start) => ({ start, cwd: repoRoot })), ...(baseline?.contenders ?? [])];
    const env = startEnv;
    const measures = contenders.map(() => [] as StartMeasure[]);
    // One warm-up start of each (file-system cache, tsx's transform cache), not counted.
    for (const { start, cwd } of contenders) await measureStart(start, cwd, env);
    for (let run = 1; run <= opts.runs; run++) {
      for (const [i, { start, cwd }] of contenders.entries()) measures[i]!.push(await measureStart(start, cwd, env));
      opts.onProgress?.(`run ${run}/${opts.runs} done (load ${loadLine()})`);
    }
    return contenders.map(({ start }, i) => summary(start.name, measures[i]!));
  } finally {
    baseline?.remove();
  }
}

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
}

if (import.meta.filename === process.argv[1]) {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const json = process.argv.includes('--json');
  const runs = option('runs', 10);
  const loadBefore = loadLine();
  const baselineAt = process.argv.indexOf('--baseline');
  const baseline = baselineAt >= 0 ? process.argv[baselineAt + 1] : undefined;
  const results = await benchStartup({
    runs,
    baseline,
    build: !process.argv.includes('--no-build'),
    onProgress: json ? undefined : (line) => process.stderr.write(`${line}\n`),
  });
  if (json) {
    out(JSON.stringify({ date: new Date().toISOString(), load: { before: loadBefore, after: loadLine() }, goalRatio: startupGoalRatio, results }, null, 2));
  } else {
    for (const line of machineLines()) out(line);
    out(`load at the start of the run: ${loadBefore}`);
    out('');
    out(`Start to /readyz 200, fresh data folder each start, ${runs} starts each (taking turns):`);
    const ms = (n: number) => `${n.toFixed(0)} ms`;
    const [npmStartResult, helloNpmStart, nodeResult, helloNode] = results as [StartupResult, StartupResult, StartupResult, StartupResult];
    // CPU against npm start's in the same run: the ratio load disturbs least.
    const cpuRatio = (r: StartupResult) => (r.cpuMs && npmStartResult.cpuMs ? `${(r.cpuMs.median / npmStartResult.cpuMs.median).toFixed(2)}x` : '-');
    out(
      textTable(
        ['start', 'median', 'p90', 'min', 'CPU median', 'CPU p90', 'CPU ÷ npm start'],
        results.map((r) => [
          r.name,
          ms(r.readyMs.median),
          ms(r.readyMs.p90),
          ms(r.readyMs.min),
          r.cpuMs ? ms(r.cpuMs.median) : '-',
          r.cpuMs ? ms(r.cpuMs.p90) : '-',
          cpuRatio(r),
        ]),
      ),
    );
    out('');
    const ratio = npmStartResult.readyMs.median / helloNpmStart.readyMs.median;
    out(
      `goal: npm start ≤ ${startupGoalRatio}x the Fastify hello's npm start: ${ms(npmStartResult.readyMs.median)} ÷ ${ms(helloNpmStart.readyMs.median)} = ${ratio.toFixed(2)}x, ` +
        `${ratio <= startupGoalRatio ? 'MET' : 'NOT MET'}; node alone: ${ms(nodeResult.readyMs.median)} ÷ ${ms(helloNode.readyMs.median)} = ${(nodeResult.readyMs.median / helloNode.readyMs.median).toFixed(2)}x.`,
    );
    out(`CPU is the process tree's (npm + node, or node) user + system time until ready.`);
  }
}
