// `npm run bench -- generations`: generations per second through the lease runner (the plan row is
// the job) on SQLite and on PostgreSQL, side by side. In one process, without HTTP or STOMP: every
// plan is started as the start handler does (conditional UPDATE + the in-process wake-up), the
// runner(s) claim, run the offline planner with no delay, save each day and summary through the
// fence, and complete. Two runners on one PostgreSQL database stand for two instances (they share
// this process's CPU, so they show the claim's overhead, not a scale-out gain). BENCH_PLANS sets the
// plans per engine (default 200); BENCH_POSTGRES_URL the server (default the local test one). Uses a
// temp SQLite file and a fresh PostgreSQL database, both removed at the end.
//
// Wall-clock rates move with the machine's load; what moves less is printed next to them: this
// process's CPU time per generation (process.cpuUsage over the run), on PostgreSQL the server's CPU
// time per generation (its backends for the bench database, from /proc) and the statements sent
// per saved day (round trips, counted on pg.Client#query). `--baseline <git ref>` runs the same
// harness over the src/ of that commit too, alternating with this tree, one child process per
// engine and round (`--rounds n`, default 1), and prints the ratios; `--json` prints the results as
// JSON; `--engine sqlite|postgres|postgres-2` runs one row.
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { generationBaseline, generationInChild } from './lib/generationBaseline.js';
import { CONCURRENCY, DURATION_DAYS, MEMBERS, onPostgres, onSqlite, type EngineRow, type GenerationResult as Result } from './lib/generationRate.js';
import { machineLines } from './lib/machine.js';
import { textTable } from './lib/textTable.js';

const out = (line: string) => process.stdout.write(`${line}\n`);

function plansFromEnv(): number {
  const raw = process.env.BENCH_PLANS ?? '200';
  const plans = Number(raw);
  if (!Number.isInteger(plans) || plans < 1 || plans > 100_000) throw new Error(`BENCH_PLANS must be an integer from 1 to 100000, got "${raw}"`);
  return plans;
}

const engineRows: EngineRow[] = ['sqlite', 'postgres', 'postgres-2'];

function runRow(row: EngineRow, plans: number, adminUrl: string): Promise<Result> {
  if (row === 'sqlite') return onSqlite(plans);
  return onPostgres(adminUrl, plans, row === 'postgres' ? 1 : 2);
}

interface Options {
  json: boolean;
  rows: EngineRow[];
  baseline: string | null;
  rounds: number;
}

function optionsFromArgs(args: string[]): Options {
  const options: Options = { json: false, rows: engineRows, baseline: null, rounds: 1 };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = () => {
      const next = args[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === '--json') options.json = true;
    else if (arg === '--engine') {
      const row = value() as EngineRow;
      if (!engineRows.includes(row)) throw new Error(`--engine must be one of ${engineRows.join(', ')}`);
      options.rows = [row];
    } else if (arg === '--baseline') options.baseline = value();
    else if (arg === '--rounds') {
      options.rounds = Number(value());
      if (!Number.isInteger(options.rounds) || options.rounds < 1 || options.rounds > 20) throw new Error('--rounds must be an integer from 1 to 20');
    } else throw new Error(`unknown option ${arg} (--json, --engine sqlite|postgres|postgres-2, --baseline <git ref>, --rounds n)`);
  }
  return options;
}

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

const perGeneration = (ms: number | null, r: Result) => (ms === null ? '-' : (ms / r.plans).toFixed(2));
const perDay = (n: number | null, r: Result) => (n === null ? '-' : (n / r.days).toFixed(1));
const rate = (r: Result) => r.plans / (r.ms / 1000);

function resultCells(r: Result): string[] {
  return [
    r.engine,
    String(r.runners),
    String(r.plans),
    (r.ms / 1000).toFixed(2),
    rate(r).toFixed(1),
    (r.days / (r.ms / 1000)).toFixed(0),
    perGeneration(r.cpuMs, r),
    perGeneration(r.serverCpuMs, r),
    perDay(r.statements, r),
  ];
}

const columns = ['engine', 'runners', 'generations', 'seconds', 'generations/s', 'days saved/s', 'CPU ms/gen', 'server CPU ms/gen', 'statements/day'];

async function compare(options: Options, out: (line: string) => void): Promise<void> {
  const { tree, remove } = generationBaseline(repoRoot, options.baseline!);
  try {
    const rows: string[][] = [];
    const pairs: { row: EngineRow; base: Result; current: Result }[] = [];
    for (const row of options.rows) {
      for (let round = 0; round < options.rounds; round++) {
        // Alternating, so that a change in the machine's load falls on both sides alike.
        const base = await generationInChild(tree, row);
        const current = await generationInChild(repoRoot, row);
        if (!base || !current) {
          out(`${row}: skipped (PostgreSQL unreachable? set BENCH_POSTGRES_URL)`);
          break;
        }
        pairs.push({ row, base, current });
        rows.push([`${options.baseline}`, ...resultCells(base)], ['this tree', ...resultCells(current)]);
      }
    }
    if (options.json) {
      out(JSON.stringify(pairs));
      return;
    }
    out(textTable(['code', ...columns], rows));
    out('');
    const ratios = options.rows.flatMap((row) => {
      const of = pairs.filter((p) => p.row === row);
      if (of.length === 0) return [];
      const sum = (f: (p: (typeof of)[number]) => number) => of.reduce((total, p) => total + f(p), 0);
      const cpu = sum((p) => p.base.cpuMs + (p.base.serverCpuMs ?? 0)) / sum((p) => p.current.cpuMs + (p.current.serverCpuMs ?? 0));
      return [[row, (sum((p) => rate(p.current)) / sum((p) => rate(p.base))).toFixed(2), cpu.toFixed(2)]];
    });
    out(textTable(['engine', 'generations/s: this ÷ baseline', 'CPU per generation (bench + server): baseline ÷ this'], ratios));
  } finally {
    remove();
  }
}

async function main(): Promise<void> {
  const options = optionsFromArgs(process.argv.slice(2));
  const plans = plansFromEnv();
  const adminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const say = options.json ? () => undefined : out;
  say('== Trip Itinerary Service: generation jobs benchmark (lease runner, offline planner, no delay)');
  for (const line of machineLines()) say(line);
  // Other work on the machine moves these numbers more than anything measured here.
  say(`load:   ${os.loadavg()[0]!.toFixed(1)} (1-minute average at the start)`);
  say(`plans:  ${plans} per row, ${DURATION_DAYS} days each, ${MEMBERS} members, GENERATION_CONCURRENCY=${CONCURRENCY} per runner`);
  say('');
  if (options.baseline) {
    await compare(options, out);
    say(`load:   ${os.loadavg()[0]!.toFixed(1)} (1-minute average at the end)`);
    return;
  }
  const results: Result[] = [];
  for (const row of options.rows) {
    try {
      results.push(await runRow(row, plans, adminUrl));
    } catch (error) {
      if (row === 'sqlite') throw error;
      say(`PostgreSQL skipped: ${String((error as Error).cause ?? error)} (set BENCH_POSTGRES_URL)`);
      break;
    }
  }
  if (options.json) {
    out(JSON.stringify(results));
    return;
  }
  out(textTable(columns, results.map(resultCells)));
  out(`load:   ${os.loadavg()[0]!.toFixed(1)} (1-minute average at the end)`);
}

await main();
