// `npm run bench:http`: HTTP throughput and latency of the service on SQLite and on PostgreSQL, side
// by side, against a bare Hono baseline (autocannon), then keyset paging at 1k vs 1M rows. Runs for a
// bounded time, talks to 127.0.0.1 only, and removes its child processes and temp files (and the
// PostgreSQL database it created). BENCH_SECONDS sets the seconds per target.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildServer } from './bench/childServer.js';
import { keysetFlatnessReport } from './bench/flatnessReport.js';
import { httpReport } from './bench/httpReport.js';
import { machineLines } from './bench/machine.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = (line: string) => process.stdout.write(`${line}\n`);

function secondsFromEnv(): number {
  const raw = process.env.BENCH_SECONDS ?? '10';
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 600) throw new Error(`BENCH_SECONDS must be an integer from 1 to 600, got "${raw}"`);
  return seconds;
}

const children: ChildServer[] = [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-bench-'));

async function cleanUp(): Promise<void> {
  await Promise.all(children.splice(0).map((child) => child.stop()));
  fs.rmSync(dir, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });
}

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

try {
  await main();
} catch (error) {
  process.stderr.write(`benchmark failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
