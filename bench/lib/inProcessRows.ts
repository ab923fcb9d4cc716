// The rows of `npm run bench -- summary` about the service's code without HTTP: CPU per generation with the
// offline planner (against the code before the performance work, in the same run), chat history
// page vs trip list page, and keyset paging flatness.
import type { BenchRow } from './benchRow.js';
import { chatPage, chatPageBefore, cpuPerPage, tripListPage, type Measured } from './chatPageCosts.js';
import type { GenerationResult } from './generationRate.js';

/** The code before the performance work's changes: the generation row's peer, measured in the same run. */
export const beforePerformanceWork = 'c157b20';

export const generationRow = {
  key: 'generation_cpu_sqlite',
  measure: 'generations (offline planner, no delay, SQLite): CPU per generation',
  ratioOf: `${beforePerformanceWork} ÷ ours`,
  goal: '≥ 2× (2× generations/s)',
};
export const chatRow = {
  key: 'chat_vs_list_page',
  measure: 'chat history page vs trip list page (repository level, CPU per page)',
  ratioOf: 'chat ÷ list',
  goal: '≤ 1.10',
};
export const keysetSqliteRow = { key: 'keyset_sqlite', measure: 'keyset page at 1M rows ÷ at 1k rows, SQLite', ratioOf: '4 pages', goal: '≤ 1.2' };
export const keysetPostgresRow = {
  key: 'keyset_postgres',
  measure: 'keyset page at 1M rows ÷ at 1k rows, PostgreSQL',
  ratioOf: '4 pages',
  goal: '≤ 1.2',
};

export function generationRows(ours: GenerationResult, before: GenerationResult): BenchRow[] {
  const cpuMs = (r: GenerationResult) => r.cpuMs / r.plans;
  const rate = (r: GenerationResult) => r.plans / (r.ms / 1000);
  const speedUp = cpuMs(before) / cpuMs(ours);
  return [
    {
      ...generationRow,
      ours: { value: cpuMs(ours), unit: `ms (${rate(ours).toFixed(1)} generations/s)` },
      peers: [{ name: `${beforePerformanceWork}, same run`, value: cpuMs(before), unit: `ms (${rate(before).toFixed(1)} generations/s)` }],
      ratio: speedUp,
      met: speedUp >= 2,
      note: `${ours.plans} plans of ${ours.days / ours.plans} days each side, one fresh child process each, ${beforePerformanceWork} first (as bench generations --baseline ${beforePerformanceWork}); CPU of that process over the run, as wall-clock generations/s moves with other work (generations/s: ${(rate(ours) / rate(before)).toFixed(2)}x)`,
    },
  ];
}

export function chatRows(totals: Map<string, Measured>, rows: number): BenchRow[] {
  const cpu = (name: string) => cpuPerPage(totals.get(name)!);
  const ratio = cpu(chatPage) / cpu(tripListPage);
  const wall = (name: string) => totals.get(name)!.wallUs / totals.get(name)!.pages;
  const wallRatio = wall(chatPage) / wall(tripListPage);
  return [
    {
      ...chatRow,
      ours: { value: cpu(chatPage), unit: 'µs' },
      peers: [
        { name: 'trip list page', value: cpu(tripListPage), unit: 'µs' },
        { name: 'chat page before the performance work (three drizzle queries)', value: cpu(chatPageBefore), unit: 'µs' },
      ],
      ratio,
      met: ratio <= 1.1,
      note: `SQLite; page of 20 after a cursor in the middle of ${rows} messages / plans, variants taking turns (bench/lib/chatPageCosts.ts, as bench chatpage, which also runs PostgreSQL); this process's CPU µs per page (it counts V8's background threads too: wall time chat ÷ list ${wallRatio.toFixed(2)})`,
    },
  ];
}

/** Met on the ratio over all 4 pages (sorts by createdAt and startDate, a page in the middle and at the end); the worst single page is in the note. */
export function keysetRow(base: typeof keysetSqliteRow, m: { ratio: number; worstRatio: number }, small: string, large: string): BenchRow {
  return {
    ...base,
    ours: { value: m.ratio, unit: `(${large} ÷ ${small})` },
    peers: [],
    ratio: m.ratio,
    met: m.ratio <= 1.2,
    note: `mean page time over the 4 pages; the worst single page ${m.worstRatio.toFixed(2)}${large !== '1M' ? `; --quick: ${large} rows instead of 1M, not the goal's shape` : ''}`,
  };
}
