// The summary's rows against the Fastify peer, assembled from given per-round numbers (no servers):
// each value the median over the rounds, the ratio the median of the rounds' own ratios, MET only when
// that ratio meets the goal and no request failed, and the rounds in the note.
import { describe, expect, it } from 'vitest';
import type { Measured } from '../../bench/lib/measureInTurns.js';
import type { VsFastify } from '../../bench/lib/vsFastify.js';
import { postgresVsFastifyRow, sqliteVsFastifyRowsOf } from '../../bench/lib/vsFastifyRows.js';

const rounds = (name: string, m: { reqPerSec: number[]; cpuUs: number[]; p99Ms: number[]; failures?: number }): Measured => ({
  name,
  server: { pid: 1 },
  target: { name, url: 'http://127.0.0.1:1/' },
  failures: 0,
  ...m,
});

function run(pairs: Pick<VsFastify, 'list' | 'get'>, engine: VsFastify['engine'] = 'sqlite'): VsFastify {
  return {
    engine,
    plans: 10_000,
    settings: { rounds: 3, seconds: 5, warmupSeconds: 2, connections: 50 },
    loads: ['1.00 1.00 1.00', '1.10 1.00 1.00', '1.20 1.00 1.00'],
    ...pairs,
  };
}

// Ours ahead on every measure: req/s ratios 1.15, 1.15, 1.5 (median 1.15, where the medians' ratio
// would be 6,000 ÷ 5,000 = 1.2); CPU 0.8, 0.85, 0.9; p99 0.9, 1.0, 0.8.
const ahead = {
  ours: rounds('ours', { reqPerSec: [5750, 6900, 6000], cpuUs: [160, 170, 180], p99Ms: [9, 10, 8] }),
  fastify: rounds('Fastify + ajv', { reqPerSec: [5000, 6000, 4000], cpuUs: [200, 200, 200], p99Ms: [10, 10, 10] }),
};
// Ours behind: req/s ratios 0.9, 0.8, 1.15 (one good round is not the median); CPU 1.2; p99 1.5.
const behind = {
  ours: rounds('ours', { reqPerSec: [4500, 4000, 5750], cpuUs: [240, 240, 240], p99Ms: [15, 15, 15] }),
  fastify: rounds('Fastify + ajv', { reqPerSec: [5000, 5000, 5000], cpuUs: [200, 200, 200], p99Ms: [10, 10, 10] }),
};

const byKey = (rows: ReturnType<typeof sqliteVsFastifyRowsOf>) => Object.fromEntries(rows.map((r) => [r.key, r]));

describe('the rows against the Fastify peer', () => {
  it('gives the list rows then the detail row, each value the median of the rounds and the ratio the median of the rounds’ ratios', () => {
    const rows = sqliteVsFastifyRowsOf(run({ list: ahead, get: behind }));
    expect(rows.map((r) => r.key)).toEqual(['list_rps_vs_fastify', 'list_cpu_vs_fastify', 'list_p99_vs_fastify', 'get_rps_vs_fastify']);
    const row = byKey(rows);
    expect(row.list_rps_vs_fastify!.ours).toEqual({ value: 6000, unit: 'req/s' });
    expect(row.list_rps_vs_fastify!.peers).toEqual([{ name: 'Fastify + ajv', value: 5000, unit: 'req/s' }]);
    expect(row.list_rps_vs_fastify!.ratio).toBeCloseTo(1.15);
    expect(row.list_cpu_vs_fastify!.ratio).toBeCloseTo(0.85);
    expect(row.list_p99_vs_fastify!.ratio).toBeCloseTo(0.9);
    expect(row.get_rps_vs_fastify!.ratio).toBeCloseTo(0.9);
  });

  it('marks each goal MET or NOT MET from its ratio: req/s ≥ 1.10, CPU ≤ 0.90, p99 ≤ 1.0', () => {
    const met = (pairs: Pick<VsFastify, 'list' | 'get'>) => sqliteVsFastifyRowsOf(run(pairs)).map((r) => [r.key, r.met]);
    expect(met({ list: ahead, get: ahead })).toEqual([
      ['list_rps_vs_fastify', true],
      ['list_cpu_vs_fastify', true],
      ['list_p99_vs_fastify', true],
      ['get_rps_vs_fastify', true],
    ]);
    expect(met({ list: behind, get: behind })).toEqual([
      ['list_rps_vs_fastify', false],
      ['list_cpu_vs_fastify', false],
      ['list_p99_vs_fastify', false],
      ['get_rps_vs_fastify', false],
    ]);
  });

  it('holds PostgreSQL to ≥ 1.0: equal req/s meets it, a little less does not', () => {
    const peer = rounds('Fastify + ajv', { reqPerSec: [3000, 3000, 3000], cpuUs: [], p99Ms: [1, 1, 1] });
    const row = postgresVsFastifyRow(run({ list: { ours: { ...peer, name: 'ours' }, fastify: peer } }, 'postgres'));
    expect([row.key, row.ratio, row.met]).toEqual(['list_rps_vs_fastify_pg', 1, true]);
    expect(row.note).toContain('on PostgreSQL');
    const slower = rounds('ours', { reqPerSec: [2900, 2950, 2990], cpuUs: [], p99Ms: [1, 1, 1] });
    expect(postgresVsFastifyRow(run({ list: { ours: slower, fastify: peer } }, 'postgres')).met).toBe(false);
  });

  it('meets no goal in a run with failed requests, and names them', () => {
    const failing = { ...ahead, ours: { ...ahead.ours, failures: 12 } };
    const rows = sqliteVsFastifyRowsOf(run({ list: failing }));
    expect(rows.map((r) => r.met)).toEqual([false, false, false]);
    expect(rows[0]!.note).toContain('ours: 12 failed requests');
  });

  it('says in the note how it was measured, and each round’s values and load', () => {
    const note = byKey(sqliteVsFastifyRowsOf(run({ list: ahead }))).list_rps_vs_fastify!.note!;
    expect(note).toContain('3 rounds in turns (ours, then Fastify + ajv), each a 2 s warm-up + 5 s at 50 connections, 10000 plans of the caller on SQLite');
    expect(note).toContain('5,750 ÷ 5,000 = 1.15, 6,900 ÷ 6,000 = 1.15, 6,000 ÷ 4,000 = 1.50');
    expect(note).toContain('1.00 1.00 1.00 | 1.10 1.00 1.00 | 1.20 1.00 1.00');
  });

  it('leaves the CPU row without a value, not failed, where /proc could not be read', () => {
    const noProc = { ours: { ...ahead.ours, cpuUs: [] }, fastify: { ...ahead.fastify, cpuUs: [] } };
    const row = byKey(sqliteVsFastifyRowsOf(run({ list: noProc }))).list_cpu_vs_fastify!;
    expect([row.ours, row.ratio, row.met]).toEqual([null, null, null]);
  });

  it('has no rows for a route that was not measured', () => {
    expect(sqliteVsFastifyRowsOf(run({ get: ahead })).map((r) => r.key)).toEqual(['get_rps_vs_fastify']);
  });
});
