// `npm run bench -- chatpage`: the database work of one chat history page next to that of one trip list
// page and the chat page's old three-query form (bench/lib/chatPageCosts.ts, which `npm run
// bench -- summary` runs too), on SQLite and on PostgreSQL (BENCH_POSTGRES_URL, default the local test server;
// skipped when it does not answer). A cursor in the middle of 2,000 messages and 2,000 plans of one
// member; CPU time per page next to wall time. BENCH_ROUNDS (default 10).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { databasePortOf, postgresPort, openSqliteDatabasePort, openPostgresDatabase } from '../src/index.js';
import { benchPostgres } from './lib/benchPostgres.js';
import { cpuPerPage, measureChatPages, PAGE, tripListPage, type Measured } from './lib/chatPageCosts.js';
import { loadLine, machineLines } from './lib/machine.js';
import { textTable } from './lib/textTable.js';

const out = (line: string) => process.stdout.write(`${line}\n`);
const ROWS = 2000;
const PER_ROUND = 200;
const production = { guardReentry: false };

function report(engine: string, totals: Map<string, Measured>): string[][] {
  const trip = totals.get(tripListPage)!;
  return [...totals].map(([name, m]) => [
    engine,
    name,
    (m.wallUs / m.pages).toFixed(1),
    (m.cpuUs / m.pages).toFixed(1),
    m.serverCpuUs === null ? '-' : (m.serverCpuUs / m.pages).toFixed(1),
    (cpuPerPage(m) / cpuPerPage(trip)).toFixed(2),
    (m.wallUs / m.pages / (trip.wallUs / trip.pages)).toFixed(2),
  ]);
}

async function main(): Promise<void> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? '10');
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('BENCH_ROUNDS must be a positive integer');
  const sizes = { rows: ROWS, rounds, perRound: PER_ROUND };
  out('== Trip Itinerary Service: chat history page vs trip list page (repository level, in-process)');
  for (const line of machineLines()) out(line);
  out(`pages:  ${PAGE} items after a cursor in the middle of ${ROWS} messages / ${ROWS} plans; ${rounds} rounds of ${PER_ROUND} pages per variant`);
  out('');
  const rows: string[][] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-bench-chatpage-'));
  const sqlite = openSqliteDatabasePort(path.join(dir, 'bench.sqlite'), production);
  try {
    rows.push(...report('SQLite', await measureChatPages(sqlite, sizes)));
  } finally {
    await sqlite.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const pg = await benchPostgres();
  if (pg.available) {
    const port = databasePortOf(postgresPort(await openPostgresDatabase(pg.url, { poolMax: 4 }), production));
    try {
      rows.push(...report('PostgreSQL', await measureChatPages(port, sizes)));
    } finally {
      await port.close();
      await pg.drop();
    }
  } else out(`PostgreSQL skipped: ${pg.reason}`);
  out(textTable(['engine', 'page', 'wall µs/page', 'CPU µs/page', 'server CPU µs/page', 'CPU (both) ÷ trip list', 'wall ÷ trip list'], rows));
  out(`load:   ${loadLine()} (1, 5, 15 min, at the end)`);
}

await main();
