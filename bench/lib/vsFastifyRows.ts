// The rows of `npm run bench -- summary` that hold our server to the Fastify + ajv peer measured in
// turns with it (vsFastify.ts): list req/s, CPU and p99 on SQLite, detail req/s on SQLite, list
// req/s on PostgreSQL. Each value is the median over the rounds; the ratio is the median of the
// rounds' own ratios (ours ÷ the peer's run right after it), which other work on the machine moves
// less than a ratio of medians taken minutes apart. A run with failed requests meets no goal.
import { formatNumber, type BenchRow } from './benchRow.js';
import { median } from './loadTest.js';
import type { RoutePair, VsFastify } from './vsFastify.js';

type RowBase = Pick<BenchRow, 'key' | 'measure' | 'ratioOf' | 'goal'>;
const vsPeer = 'ours ÷ Fastify';
/** The goals, as ratios ours ÷ the peer. */
const rpsAtLeast = 1.1;
const cpuAtMost = 0.9;
const postgresRpsAtLeast = 1;
const p99AtMost = 1;

export const listRpsVsFastifyRow = {
  key: 'list_rps_vs_fastify',
  measure: 'GET /api/v1/trips?size=20 req/s, SQLite, in turns with Fastify',
  ratioOf: vsPeer,
  goal: `≥ ${rpsAtLeast.toFixed(2)}`,
};
export const listCpuVsFastifyRow = {
  key: 'list_cpu_vs_fastify',
  measure: 'CPU per list request, SQLite, in turns with Fastify',
  ratioOf: vsPeer,
  goal: `≤ ${cpuAtMost.toFixed(2)}`,
};
export const getRpsVsFastifyRow = {
  key: 'get_rps_vs_fastify',
  measure: 'GET /api/v1/trips/{id} req/s, SQLite, in turns with Fastify',
  ratioOf: vsPeer,
  goal: `≥ ${rpsAtLeast.toFixed(2)}`,
};
export const listRpsVsFastifyPgRow = {
  key: 'list_rps_vs_fastify_pg',
  measure: 'GET /api/v1/trips?size=20 req/s, PostgreSQL, in turns with Fastify',
  ratioOf: vsPeer,
  goal: `≥ ${postgresRpsAtLeast.toFixed(1)}`,
};
export const listP99VsFastifyRow = {
  key: 'list_p99_vs_fastify',
  measure: 'list p99 latency at 50 connections, SQLite, in turns with Fastify',
  ratioOf: vsPeer,
  goal: `≤ ${p99AtMost.toFixed(1)}`,
};
/** The rows measured on SQLite, in the table's order (the PostgreSQL row after them). */
export const sqliteVsFastifyRows = [listRpsVsFastifyRow, listCpuVsFastifyRow, listP99VsFastifyRow, getRpsVsFastifyRow];

type Series = 'reqPerSec' | 'cpuUs' | 'p99Ms';
const units: Record<Series, string> = { reqPerSec: 'req/s', cpuUs: 'µs', p99Ms: 'ms' };

/** One row from a route's rounds: `meets` says whether the ratio meets the goal. */
function pairRow(base: RowBase, run: VsFastify, pair: RoutePair | undefined, series: Series, meets: (ratio: number) => boolean): BenchRow {
  if (!pair) throw new Error(`${base.key}: its route was not measured`);
  const { ours, fastify } = pair;
  const rounds = run.settings.rounds;
  if (ours[series].length !== rounds || fastify[series].length !== rounds)
    return { ...base, ours: null, peers: [], ratio: null, met: null, note: 'no /proc: process CPU time not readable here' };
  const ratios = ours[series].map((value, i) => value / fastify[series][i]!);
  const ratio = median(ratios);
  const failures = [ours, fastify].filter((m) => m.failures > 0).map((m) => `${m.name}: ${m.failures} failed requests`);
  const perRound = ours[series].map((value, i) => `${formatNumber(value)} ÷ ${formatNumber(fastify[series][i]!)} = ${ratios[i]!.toFixed(2)}`);
  const { seconds, warmupSeconds, connections } = run.settings;
  const note = [
    ...failures,
    `${rounds} round${rounds > 1 ? 's' : ''} in turns (ours, then Fastify + ajv), each a ${warmupSeconds} s warm-up + ${seconds} s at ${connections} connections, ${run.plans} plans of the caller on ${run.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`,
    `per round ${units[series]} ours ÷ Fastify: ${perRound.join(', ')}`,
    `load after each round: ${run.loads.join(' | ')}`,
  ].join('; ');
  return {
    ...base,
    ours: { value: median(ours[series]), unit: units[series] },
    peers: [{ name: fastify.name, value: median(fastify[series]), unit: units[series] }],
    ratio,
    met: failures.length === 0 && meets(ratio),
    note,
  };
}

/** The SQLite rows of the routes `run` measured (a route not measured leaves its rows out). */
export function sqliteVsFastifyRowsOf(run: VsFastify): BenchRow[] {
  return [
    ...(run.list
      ? [
          pairRow(listRpsVsFastifyRow, run, run.list, 'reqPerSec', (r) => r >= rpsAtLeast),
          pairRow(listCpuVsFastifyRow, run, run.list, 'cpuUs', (r) => r <= cpuAtMost),
          pairRow(listP99VsFastifyRow, run, run.list, 'p99Ms', (r) => r <= p99AtMost),
        ]
      : []),
    ...(run.get ? [pairRow(getRpsVsFastifyRow, run, run.get, 'reqPerSec', (r) => r >= rpsAtLeast)] : []),
  ];
}

export function postgresVsFastifyRow(run: VsFastify): BenchRow {
  return pairRow(listRpsVsFastifyPgRow, run, run.list, 'reqPerSec', (r) => r >= postgresRpsAtLeast);
}
