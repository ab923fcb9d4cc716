// Step 6 of the benchmark: list latency for a page in the middle and at the end of one member's plans,
// on a 1,000-row database and on a 1,000,000-row one (the member owning 10% of the rows in both), and
// the query plan that makes the two cost the same.
import path from 'node:path';
import { openDatabase, databasePortOf, sqlitePort, type TripSort } from '../../src/index.js';
import { cursorAt, explainPageQuery, isFullScanOrSort, measurePage, pageSize } from './keysetFlatness.js';
import { insertMembers, insertTripPlans } from './seedTrips.js';
import { textTable } from './textTable.js';

export interface FlatnessShape {
  label: string;
  members: number;
  plans: number;
  /** plans of the measured member (the first one) */
  measured: number;
}

export const flatnessShapes: [FlatnessShape, FlatnessShape] = [
  { label: '1k', members: 10, plans: 1_000, measured: 100 },
  { label: '1M', members: 1_000, plans: 1_000_000, measured: 100_000 },
];
/** The same two shapes a hundred times smaller, for a smoke test of the harness (`npm run bench -- summary --quick`). */
export const quickFlatnessShapes: [FlatnessShape, FlatnessShape] = [
  { label: '1k', members: 10, plans: 1_000, measured: 100 },
  { label: '10k', members: 100, plans: 10_000, measured: 1_000 },
];
const sorts: TripSort[] = [
  { field: 'createdAt', direction: 'desc' },
  { field: 'startDate', direction: 'asc' },
];
const fmt = (n: number) => n.toLocaleString('en-US');

function build(file: string, shape: FlatnessShape): { memberId: number; seconds: number } {
  const started = performance.now();
  const database = openDatabase(file);
  try {
    const [first, ...others] = insertMembers(database.sqlite, shape.members, Date.now(), `flat-${shape.label}`);
    const rest = shape.plans - shape.measured;
    const owners = [
      { memberId: first!, count: shape.measured },
      ...others.map((memberId, i) => ({ memberId, count: Math.floor(rest / others.length) + (i < rest % others.length ? 1 : 0) })),
    ];
    insertTripPlans(database.sqlite, owners, Date.now());
    database.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    return { memberId: first!, seconds: (performance.now() - started) / 1000 };
  } finally {
    database.close();
  }
}

/** Prints the comparison; returns the large/small ratio of the page time over the 4 pages, and the largest of the 4 ratios. */
export async function keysetFlatnessReport(
  dir: string,
  out: (line: string) => void,
  { shapes = flatnessShapes, iterations = 500 }: { shapes?: [FlatnessShape, FlatnessShape]; iterations?: number } = {},
): Promise<{ ratio: number; worstRatio: number }> {
  let worstRatio = 0;
  let smallSum = 0;
  let largeSum = 0;
  const built = shapes.map((shape) => {
    const file = path.join(dir, `flat-${shape.label}.sqlite`);
    const { memberId, seconds } = build(file, shape);
    out(
      `seeded ${fmt(shape.plans)} trip plans (+ ${fmt(shape.plans)} chat rooms) over ${fmt(shape.members)} members, the measured one owning ${fmt(shape.measured)}: ${seconds.toFixed(1)} s`,
    );
    return { shape, file, memberId };
  });

  // A fresh connection per database with the service's own settings (openDatabase), as the server has.
  const opened = built.map((b) => {
    const database = openDatabase(b.file);
    return { ...b, database, port: databasePortOf(sqlitePort(database)) };
  });
  try {
    const rows: string[][] = [];
    for (const sort of sorts) {
      for (const where of ['middle', 'end'] as const) {
        const cells = [];
        for (const { shape, database, port, memberId } of opened) {
          const position = where === 'middle' ? Math.floor(shape.measured / 2) : shape.measured - pageSize - 1;
          cells.push(await measurePage(port, memberId, sort, cursorAt(database, memberId, sort, position), iterations));
        }
        const [small, large] = cells as [{ meanUs: number; p99Us: number }, { meanUs: number; p99Us: number }];
        worstRatio = Math.max(worstRatio, large.meanUs / small.meanUs);
        smallSum += small.meanUs;
        largeSum += large.meanUs;
        rows.push([
          `${sort.field}:${sort.direction}`,
          where,
          small.meanUs.toFixed(0),
          small.p99Us.toFixed(0),
          large.meanUs.toFixed(0),
          large.p99Us.toFixed(0),
          `${(large.meanUs / small.meanUs).toFixed(2)}x`,
        ]);
      }
    }
    out('');
    out(`page of ${pageSize}, cursor lookup + page query (what listTripPlans runs), ${iterations} iterations after 50 warm-up, in µs:`);
    const [s, l] = shapes.map((shape) => shape.label);
    out(textTable(['sort', 'page', `${s} mean`, `${s} p99`, `${l} mean`, `${l} p99`, `${l}/${s} mean`], rows));

    const large = opened[1]!;
    for (const sort of sorts) {
      const cursor = cursorAt(large.database, large.memberId, sort, Math.floor(large.shape.measured / 2));
      const [sql, ...plan] = explainPageQuery(large.database, large.memberId, sort, cursor);
      out('');
      out(`EXPLAIN QUERY PLAN, sort ${sort.field}:${sort.direction}, ${large.shape.label} rows:`);
      out(`  ${sql}`);
      for (const line of plan) out(line);
      const bad = plan.filter(isFullScanOrSort);
      out(bad.length === 0 ? '  -> index range search only: no SCAN, no temp B-tree' : `  -> NOT keyset-friendly: ${bad.map((l) => l.trim()).join('; ')}`);
    }
  } finally {
    for (const { database } of opened) database.close();
  }
  return { ratio: largeSum / smallSum, worstRatio };
}
