// One row of `npm run bench -- summary`'s table (and of its --json): a performance measure
// (docs/performance.md, "The performance table"), our value, the peers' values in the same run, the ratio the goal is stated in,
// and whether the goal is met.
export interface Value {
  value: number;
  unit: string;
}

export interface BenchRow {
  /** stable across commits: what --json readers key on */
  key: string;
  measure: string;
  ours: Value | null;
  peers: ({ name: string } & Value)[];
  /** the number the goal is about, and what it divides */
  ratio: number | null;
  ratioOf: string;
  goal: string;
  /** null when the measure could not be taken (see note) */
  met: boolean | null;
  note?: string;
}

/** A row whose measure failed or was skipped: in the table with the reason, never dropped. */
export function missingRow(row: Pick<BenchRow, 'key' | 'measure' | 'ratioOf' | 'goal'>, reason: string): BenchRow {
  return { ...row, ours: null, peers: [], ratio: null, met: null, note: reason };
}

const digits = (n: number) => (Math.abs(n) >= 100 ? 0 : Math.abs(n) >= 10 ? 1 : Math.abs(n) >= 1 ? 2 : 3);
export const formatNumber = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: digits(n), minimumFractionDigits: digits(n) });
export const formatValue = (v: Value | null) => (v === null ? '-' : `${formatNumber(v.value)} ${v.unit}`);
