// The text form of `npm run bench -- summary`'s report: the machine and its load, then one row per measure.
import { formatNumber, formatValue, type BenchRow } from './benchRow.js';
import { textTable } from './textTable.js';

export interface BenchReport {
  commit: string;
  machine: { lines: string[]; cores: number; loadBefore: number[]; loadAfter: number[] };
  settings: Record<string, unknown>;
  rows: BenchRow[];
}

const load = (l: number[]) => l.map((n) => n.toFixed(2)).join(' ');

export function benchTable(report: BenchReport): string {
  const rows = report.rows.map((r) => [
    r.measure,
    formatValue(r.ours),
    r.peers.map((p) => `${p.name}: ${formatValue(p)}`).join('; ') || '-',
    r.ratio === null ? '-' : `${formatNumber(r.ratio)} (${r.ratioOf})`,
    r.goal,
    r.met === null ? 'n/a' : r.met ? 'MET' : 'NOT MET',
  ]);
  const notes = report.rows.filter((r) => r.note).map((r) => `note, ${r.key}: ${r.note}`);
  return [
    '== Trip Itinerary Service: performance benchmark (ratios hold across runs; absolute numbers vary with load)',
    `commit: ${report.commit}`,
    ...report.machine.lines.filter((line) => !line.startsWith('load:')),
    `load:   ${load(report.machine.loadBefore)} at the start, ${load(report.machine.loadAfter)} at the end (1, 5, 15 min; ${report.machine.cores} cores shared with the load generator and other work)`,
    `settings: ${JSON.stringify(report.settings)}`,
    '',
    textTable(['measure', 'ours', 'peers (same run)', 'ratio', 'goal', 'met'], rows),
    ...(notes.length > 0 ? ['', ...notes] : []),
  ].join('\n');
}
