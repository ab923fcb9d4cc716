// The row types of two drizzle schema modules, compared table by table: what differs, as
// 'table.column (select|insert)' strings (never when the two schemas give identical rows).
import type { DifferingKeys, Equal } from './typeEquality.js';

type Table = { $inferSelect: object; $inferInsert: object };
type TablesOf<S> = { [K in keyof S as S[K] extends Table ? K : never]: S[K] };

type ColumnDifferences<A, B, Row extends '$inferSelect' | '$inferInsert', Name extends string> = A extends Table
  ? B extends Table
    ? [DifferingKeys<A[Row], B[Row]>] extends [never]
      ? Equal<A[Row], B[Row]> extends true
        ? never
        : `${Name} (${Row}: same columns, different optionality or modifiers)`
      : `${Name}.${DifferingKeys<A[Row], B[Row]> & string} (${Row})`
    : never
  : never;

/** Tables only one schema has, and every column whose select or insert type differs. */
export type SchemaRowDifferences<SchemaA, SchemaB> = {
  [K in keyof TablesOf<SchemaA> | keyof TablesOf<SchemaB>]: K extends keyof TablesOf<SchemaA>
    ? K extends keyof TablesOf<SchemaB>
      ? | ColumnDifferences<TablesOf<SchemaA>[K], TablesOf<SchemaB>[K], '$inferSelect', K & string>
        | ColumnDifferences<TablesOf<SchemaA>[K], TablesOf<SchemaB>[K], '$inferInsert', K & string>
      : `${K & string} (only in the first schema)`
    : `${K & string} (only in the second schema)`;
}[keyof TablesOf<SchemaA> | keyof TablesOf<SchemaB>];
