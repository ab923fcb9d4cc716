// `npm run bench -- summary`'s report: the table assembled from each part's measurements (small inputs, the
// row functions bench.ts calls), and the script end to end on its in-process parts only
// (`--quick --json --only ...`: no servers started; the generation row checks out the commit before
// the performance work to run it next to ours, a few seconds), every row of the performance table
// still in the report. Nothing here asserts on a measured number's size or on time: a loaded
// machine may miss any goal.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { BenchRow } from '../../bench/lib/benchRow.js';
import { benchTable, type BenchReport } from '../../bench/lib/benchTable.js';
import { chatPage, chatPageBefore, tripListPage, type Measured } from '../../bench/lib/chatPageCosts.js';
import type { GenerationResult } from '../../bench/lib/generationRate.js';
import type { ConnectionResult } from '../../bench/lib/idleConnectionCost.js';
import { chatRows, generationRows, keysetPostgresRow, keysetRow, keysetSqliteRow } from '../../bench/lib/inProcessRows.js';
import type { ServerLoad } from '../../bench/lib/listThroughput.js';
import { listRows } from '../../bench/lib/listRows.js';
import { connectionRows, startRows } from '../../bench/lib/processRows.js';
import { summary } from '../../bench/lib/startupRun.js';
import { median } from '../../bench/lib/loadTest.js';
import type { Measured as InTurns } from '../../bench/lib/measureInTurns.js';
import type { VsFastify } from '../../bench/lib/vsFastify.js';
import { postgresVsFastifyRow, sqliteVsFastifyRowsOf } from '../../bench/lib/vsFastifyRows.js';

const run = promisify(execFile);
const everyMeasure = [
  'list_vs_hello',
  'list_cpu_per_request',
  'list_rps_vs_fastify',
  'list_cpu_vs_fastify',
  'list_p99_vs_fastify',
  'get_rps_vs_fastify',
  'list_rps_vs_fastify_pg',
  'start_to_ready',
  'rss_per_idle_stomp_connection',
  'generation_cpu_sqlite',
  'chat_vs_list_page',
  'keyset_sqlite',
  'keyset_postgres',
];

const load = (reqPerSec: number, cpuUsPerRequest: number | null, failures = 0): ServerLoad => ({
  reqPerSec,
  cpuUsPerRequest,
  p99Ms: 10,
  responses: reqPerSec * 5,
  failures,
});
const connections = (name: string, before: number, withThem: number, opened = 1000, failed = 0): ConnectionResult => ({
  name,
  opened,
  failed,
  failures: failed > 0 ? ['upgrade answered 429'] : [],
  rss: { before, with: withThem, afterIdle: withThem },
  bytesPerConnection: opened > 0 ? (withThem - before) / opened : null,
  idleCpuMsPerSecond: 0.5,
  connectSeconds: 1,
  loadAfter: '1.00 1.00 1.00',
});
const generations = (ms: number, cpuMs: number): GenerationResult => ({
  engine: 'SQLite (file, WAL)',
  runners: 1,
  plans: 200,
  days: 600,
  ms,
  cpuMs,
  serverCpuMs: null,
  statements: null,
});
const pages = (cpuUsPerPage: number): Measured => ({ wallUs: cpuUsPerPage * 1000, cpuUs: cpuUsPerPage * 1000, serverCpuUs: null, pages: 1000 });
const starts = (name: string, readyMs: number[]) =>
  summary(
    name,
    readyMs.map((ms) => ({ readyMs: ms, cpuMs: ms / 2 })),
  );

const inTurns = (name: string, reqPerSec: number, cpuUs: number, p99Ms: number): InTurns => ({
  name,
  server: { pid: 1 },
  target: { name, url: 'http://127.0.0.1:1/' },
  reqPerSec: [reqPerSec, reqPerSec],
  cpuUs: [cpuUs, cpuUs],
  p99Ms: [p99Ms, p99Ms],
  failures: 0,
});
const vsFastify = (engine: VsFastify['engine']): VsFastify => {
  const pair = { ours: inTurns('ours', 6_000, 150, 9), fastify: inTurns('Fastify + ajv', 5_000, 200, 10) };
  return { engine, plans: 10_000, settings: { rounds: 2, seconds: 5, warmupSeconds: 2, connections: 50 }, list: pair, get: pair, loads: ['1.00 1.00 1.00'] };
};

/** Each part's rows from small measurements, in bench.ts's order. */
function assembledRows(): BenchRow[] {
  return [
    ...listRows({ hello: load(20_000, 20), ours: load(4_000, 180), fastify: load(2_500, 250), openapiBackend: load(1_000, 600) }),
    ...sqliteVsFastifyRowsOf(vsFastify('sqlite')),
    postgresVsFastifyRow(vsFastify('postgres')),
    ...startRows({
      ours: starts('npm start (compiled)', [450, 400, 900]),
      fastify: starts('Fastify hello (npm start)', [400, 410, 390]),
      oursNode: starts('node dist/server/main.js', [300, 250, 260]),
      fastifyNode: starts('Fastify hello (node)', [200, 210, 190]),
    }),
    ...connectionRows({ ours: connections('service', 100 * 2 ** 20, 110 * 2 ** 20), bareWs: connections('bare ws', 80 * 2 ** 20, 89 * 2 ** 20) }),
    ...generationRows(generations(2_000, 800), generations(4_000, 1_840)),
    ...chatRows(
      new Map([
        [tripListPage, pages(100)],
        [chatPage, pages(60)],
        [chatPageBefore, pages(300)],
      ]),
      2000,
    ),
    keysetRow(keysetSqliteRow, { ratio: 1.05, worstRatio: 1.3 }, '1k', '1M'),
    keysetRow(keysetPostgresRow, { ratio: 1.4, worstRatio: 1.6 }, '1k', '1M'),
  ];
}

describe('median of the benchmark scripts', () => {
  it('takes the middle value of an odd count and the mean of the two middle ones of an even count, in any order', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});

describe("the summary's table, assembled from each part's measurements", () => {
  const rows = assembledRows();
  const row = (key: string) => rows.find((r) => r.key === key)!;

  it('has one row per measure of the performance table, in order, each with our value, a ratio and whether its goal is met', () => {
    expect(rows.map((r) => r.key)).toEqual(everyMeasure);
    expect(rows.filter((r) => r.ours === null || r.ratio === null || typeof r.met !== 'boolean').map((r) => r.key)).toEqual([]);
  });

  it('states each ratio as the goal does: list ÷ hello, CPU ÷ Fastify, start ÷ Fastify hello, ours ÷ bare ws, chat ÷ list', () => {
    expect(row('list_vs_hello').ratio).toBeCloseTo(0.2);
    expect(row('list_cpu_per_request').ratio).toBeCloseTo(180 / 250);
    expect(row('list_rps_vs_fastify').ratio).toBeCloseTo(1.2);
    expect(row('list_cpu_vs_fastify').ratio).toBeCloseTo(0.75);
    expect(row('list_p99_vs_fastify').ratio).toBeCloseTo(0.9);
    expect(row('list_rps_vs_fastify_pg').ratio).toBeCloseTo(1.2);
    expect(row('start_to_ready').ours?.value).toBeCloseTo(0.45); // the median of three starts
    expect(row('start_to_ready').ratio).toBeCloseTo(450 / 400); // npm start ÷ npm start
    expect(row('start_to_ready').note).toContain('= 1.30x'); // node ÷ node: 260 ÷ 200
    expect(row('rss_per_idle_stomp_connection').ours?.value).toBeCloseTo(10.24);
    expect(row('rss_per_idle_stomp_connection').ratio).toBeCloseTo(10 / 9);
    expect(row('generation_cpu_sqlite').ratio).toBeCloseTo(1_840 / 800); // the code before the performance work's CPU ÷ ours
    expect(row('chat_vs_list_page').ratio).toBeCloseTo(0.6);
    expect(row('chat_vs_list_page').peers.map((p) => p.value)).toEqual([100, 300]);
  });

  it('marks a goal met or not from the measured value', () => {
    expect(rows.filter((r) => r.met).map((r) => r.key)).toEqual(everyMeasure.filter((key) => key !== 'keyset_postgres')); // 1.4 > 1.2
    const slower = listRows({ hello: load(20_000, 20), ours: load(3_000, 180), fastify: load(3_500, 250), openapiBackend: load(1_000, 600) });
    expect(slower[0]!.met).toBe(false); // above 0.15 of hello, but behind Fastify
    const slowStart = startRows({
      ours: starts('npm start (compiled)', [700]),
      fastify: starts('Fastify hello (npm start)', [400]),
      oursNode: starts('node dist/server/main.js', [300]),
      fastifyNode: starts('Fastify hello (node)', [200]),
    });
    expect(slowStart[0]!.met).toBe(false); // 1.75x, over the 1.5x of the goal
  });

  it('does not count a list run with failed requests as met', () => {
    const failing = listRows({ hello: load(20_000, 20), ours: load(4_000, 180, 3), fastify: load(2_500, 250), openapiBackend: load(1_000, 600) });
    expect(failing.map((r) => r.met)).toEqual([false, false]);
    expect(failing[0]!.note).toContain('ours: 3 failed requests');
  });

  it('refuses a memory figure from a run where connections failed', () => {
    expect(() => connectionRows({ ours: connections('service', 100, 200, 900, 100), bareWs: connections('bare ws', 80, 89) })).toThrow(
      /100 of 1000 connections failed/,
    );
  });

  it('prints every measure, its goal and the machine load in the text table', () => {
    const report: BenchReport = {
      commit: 'abc1234',
      machine: { lines: ['cpu: test'], cores: 2, loadBefore: [1, 2, 3], loadAfter: [1, 2, 3] },
      settings: {},
      rows,
    };
    const table = benchTable(report);
    for (const r of rows) expect(table).toContain(r.measure);
    expect(table).toContain('1.00 2.00 3.00 at the start');
    expect(table.match(/NOT MET/g)).toHaveLength(1);
  });
});

describe('npm run bench -- summary --quick --json --only <in-process rows>', () => {
  it('measures the rows asked for and keeps every other row of the table as not run', { timeout: 120_000 }, async () => {
    const asked = ['generation_cpu_sqlite', 'chat_vs_list_page'];
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/summary.ts', '--quick', '--json', '--only', asked.join(',')], {
      cwd: new URL('../..', import.meta.url),
      maxBuffer: 10 * 1024 * 1024,
    });
    const report = JSON.parse(stdout) as BenchReport;
    expect(report.rows.map((r) => r.key)).toEqual(everyMeasure);
    const measured = report.rows.filter((r) => r.ours !== null && r.ratio !== null && typeof r.met === 'boolean');
    expect(measured.map((r) => r.key)).toEqual(asked);
    expect(report.rows.filter((r) => !asked.includes(r.key)).map((r) => [r.key, r.met, r.note])).toEqual(
      everyMeasure.filter((key) => !asked.includes(key)).map((key) => [key, null, 'not run (--only)']),
    );
    expect(report.machine.loadBefore).toHaveLength(3);
    expect(report.settings).toMatchObject({ quick: true, only: asked });
  });

  it('refuses a key that is not a row of the table', async () => {
    await expect(
      run(process.execPath, ['--import', 'tsx', 'bench/summary.ts', '--quick', '--json', '--only', 'start_to_readyz'], {
        cwd: new URL('../..', import.meta.url),
      }),
    ).rejects.toMatchObject({ stderr: expect.stringContaining('--only takes row keys') as unknown });
  });
});
