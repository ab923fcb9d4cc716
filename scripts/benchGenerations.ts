// `npm run bench:generations`: generations per second through the lease runner (the plan row is
// the job) on SQLite and on PostgreSQL, side by side. In one process, without HTTP or STOMP: every
// plan is started as the start handler does (conditional UPDATE + the in-process wake-up), the
// runner(s) claim, run the offline planner with no delay, save each day and summary through the
// fence, and complete. Two runners on one PostgreSQL database stand for two instances (they share
// this process's CPU, so they show the claim's overhead, not a scale-out gain). BENCH_PLANS sets the
// plans per engine (default 200); BENCH_POSTGRES_URL the server (default the local test one). Uses a
// temp SQLite file and a fresh PostgreSQL database, both removed at the end.
import os from 'node:os';
import { CONCURRENCY, DURATION_DAYS, MEMBERS, onPostgres, onSqlite } from './bench/generationRate.js';
import { machineLines } from './bench/machine.js';
import { textTable } from './bench/textTable.js';

const out = (line: string) => process.stdout.write(`${line}\n`);

function plansFromEnv(): number {
  const raw = process.env.BENCH_PLANS ?? '200';
  const plans = Number(raw);
  if (!Number.isInteger(plans) || plans < 1 || plans > 100_000) throw new Error(`BENCH_PLANS must be an integer from 1 to 100000, got "${raw}"`);
  return plans;
}

async function main(): Promise<void> {
  const plans = plansFromEnv();
  const adminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  out('== Trip Itinerary Service: generation jobs benchmark (lease runner, offline planner, no delay)');
  for (const line of machineLines()) out(line);
  // Other work on the machine moves these numbers more than anything measured here.
  out(`load:   ${os.loadavg()[0]!.toFixed(1)} (1-minute average at the start)`);
  out(`plans:  ${plans} per row, ${DURATION_DAYS} days each, ${MEMBERS} members, GENERATION_CONCURRENCY=${CONCURRENCY} per runner`);
  out('');
  const results = [await onSqlite(plans)];
  try {
    results.push(await onPostgres(adminUrl, plans, 1), await onPostgres(adminUrl, plans, 2));
  } catch (error) {
    out(`PostgreSQL skipped: ${String((error as Error).cause ?? error)} (set BENCH_POSTGRES_URL)`);
  }
  const rows = results.map((r) => [
    r.engine,
    String(r.runners),
    String(r.plans),
    (r.ms / 1000).toFixed(2),
    (r.plans / (r.ms / 1000)).toFixed(1),
    (r.days / (r.ms / 1000)).toFixed(0),
  ]);
  out(textTable(['engine', 'runners', 'generations', 'seconds', 'generations/s', 'days saved/s'], rows));
}

await main();
