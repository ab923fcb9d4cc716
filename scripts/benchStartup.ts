// `npm run bench:startup [-- --runs 10] [--no-build] [--json]`: time from start to the first 200
// of /readyz, each start on a fresh data folder (migrations applied, JWT secret generated), for
// the compiled start (`npm start`, and its node command alone) and the tsx start (`npm run dev`,
// what `npm start` ran before the build, and its node command alone) side by side. The starts take
// turns (one of each, N times), so load on the machine falls on all of them alike. Prints median
// and p90 of the wall time and of the CPU time the started processes used until ready (what load
// disturbs least), with the machine and its load. Builds dist/ first unless --no-build.
// `benchStartup()` is the same for the bench harness.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { percentile } from './bench/loadTest.js';
import { loadLine, machineLines } from './bench/machine.js';
import { measureStart, type StartCommand, type StartMeasure } from './bench/startupRun.js';
import { textTable } from './bench/textTable.js';

const repoRoot = path.resolve(import.meta.dirname, '..');
/** Issue 16: `npm start` until /readyz 200. */
export const startupGoalMs = 500;

export const startCommands: StartCommand[] = [
  { name: 'npm start (compiled)', command: 'npm', args: ['start'] },
  { name: 'npm run dev (tsx)', command: 'npm', args: ['run', 'dev'] },
  { name: 'node dist/src/main.js', command: process.execPath, args: ['dist/src/main.js'] },
  { name: 'node --import tsx src/main.ts', command: process.execPath, args: ['--import', 'tsx', 'src/main.ts'] },
];

export interface StartupResult {
  name: string;
  runs: number;
  readyMs: { median: number; p90: number; min: number };
  /** null without procfs */
  cpuMs: { median: number; p90: number } | null;
}

function summary(name: string, measures: StartMeasure[]): StartupResult {
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

export async function benchStartup(opts: { runs: number; build: boolean; onProgress?: (line: string) => void }): Promise<StartupResult[]> {
  if (opts.build) execFileSync('npm', ['run', '--silent', 'build'], { cwd: repoRoot, stdio: 'inherit' });
  const env = { NODE_ENV: 'development', LOG_LEVEL: 'info' };
  const measures = startCommands.map(() => [] as StartMeasure[]);
  // One warm-up start of each (file-system cache, tsx's transform cache), not counted.
  for (const start of startCommands) await measureStart(start, repoRoot, env);
  for (let run = 1; run <= opts.runs; run++) {
    for (const [i, start] of startCommands.entries()) measures[i]!.push(await measureStart(start, repoRoot, env));
    opts.onProgress?.(`run ${run}/${opts.runs} done (load ${loadLine()})`);
  }
  return startCommands.map((start, i) => summary(start.name, measures[i]!));
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
  const results = await benchStartup({
    runs,
    build: !process.argv.includes('--no-build'),
    onProgress: json ? undefined : (line) => process.stderr.write(`${line}\n`),
  });
  if (json) {
    out(JSON.stringify({ date: new Date().toISOString(), load: { before: loadBefore, after: loadLine() }, goalMs: startupGoalMs, results }, null, 2));
  } else {
    for (const line of machineLines()) out(line);
    out(`load at the start of the run: ${loadBefore}`);
    out('');
    out(`Start to /readyz 200, fresh data folder each start, ${runs} starts each (taking turns):`);
    const ms = (n: number) => `${n.toFixed(0)} ms`;
    out(
      textTable(
        ['start', 'median', 'p90', 'min', 'CPU median', 'CPU p90'],
        results.map((r) => [
          r.name,
          ms(r.readyMs.median),
          ms(r.readyMs.p90),
          ms(r.readyMs.min),
          r.cpuMs ? ms(r.cpuMs.median) : '-',
          r.cpuMs ? ms(r.cpuMs.p90) : '-',
        ]),
      ),
    );
    const npmStart = results[0]!;
    out('');
    out(
      `goal: npm start ready in ≤ ${startupGoalMs} ms: median ${ms(npmStart.readyMs.median)} (${npmStart.readyMs.median <= startupGoalMs ? 'met' : 'missed'} at this load); ` +
        `CPU is the process tree's (npm + node, or node) user + system time until ready.`,
    );
  }
}
