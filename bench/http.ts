// `npm run bench -- http`: HTTP throughput and latency of the service on SQLite and on PostgreSQL, side
// by side, against a bare Hono baseline (autocannon), then keyset paging at 1k vs 1M rows. Runs for a
// bounded time, talks to 127.0.0.1 only, and removes its child processes and temp files (and the
// PostgreSQL database it created). BENCH_SECONDS sets the seconds per target.
import { fileURLToPath } from 'node:url';
import { benchRun, runMain } from './lib/benchRun.js';
import { keysetFlatnessReport } from './lib/flatnessReport.js';
import { httpReport } from './lib/httpReport.js';
import { machineLines } from './lib/machine.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = (line: string) => process.stdout.write(`${line}\n`);

function secondsFromEnv(): number {
  const raw = process.env.BENCH_SECONDS ?? '10';
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 600) throw new Error(`BENCH_SECONDS must be an integer from 1 to 600, got "${raw}"`);
  return seconds;
}

const { dir, children, cleanUp } = benchRun('trip-bench-');

async function main(): Promise<void> {
  const seconds = secondsFromEnv();
  out('== Trip Itinerary Service: HTTP benchmark');
  for (const line of machineLines()) out(line);
  out('');
  await httpReport({ root, dir, seconds, started: (child) => children.push(child), out });
  // The servers are done; stop them so the in-process measurements below have the cores to themselves.
  await Promise.all(children.splice(0).map((child) => child.stop()));
  out('');
  out('== Keyset paging: 1k rows vs 1M rows (in-process, repository level)');
  await keysetFlatnessReport(dir, out);
}

await runMain(main, cleanUp);
