// `npm run bench -- --quick --json` end to end: every part of the harness runs (servers started,
// loaded and stopped; the in-process measures on small sizes) and the report has every row of
// issue 16's table, each measured, in the stable JSON shape; its text form names every measure.
// Nothing here asserts on a number's size: a loaded machine may miss any goal.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { BenchRow } from '../../scripts/bench/benchRow.js';
import { benchTable, type BenchReport } from '../../scripts/bench/benchTable.js';

const run = promisify(execFile);
const everyMeasure = [
  'list_vs_hello',
  'list_cpu_per_request',
  'start_to_ready',
  'rss_per_idle_stomp_connection',
  'generation_cpu_sqlite',
  'chat_vs_list_page',
  'keyset_sqlite',
  'keyset_postgres',
];

describe('npm run bench -- --quick --json', () => {
  it('reports every measure of the table, each with our value, a ratio and whether its goal is met', { timeout: 240_000 }, async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/bench.ts', '--quick', '--json'], {
      cwd: new URL('../..', import.meta.url),
      env: { ...process.env, BENCH_SECONDS: '1' },
      maxBuffer: 10 * 1024 * 1024,
    });
    const report = JSON.parse(stdout) as BenchReport;
    expect(report.rows.map((row) => row.key)).toEqual(everyMeasure);
    const unmeasured = report.rows.filter((row: BenchRow) => row.ours === null || row.ratio === null || typeof row.met !== 'boolean');
    expect(unmeasured.map((row) => `${row.key}: ${row.note}`)).toEqual([]);
    expect(report.machine.loadBefore).toHaveLength(3);
    const table = benchTable(report);
    for (const row of report.rows) expect(table).toContain(row.measure);
  });
});
