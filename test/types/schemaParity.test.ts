// The SQLite and PostgreSQL schemas must give identical row types (test/types/schemaParity.ts,
// compiled by `npm run typecheck`). This proves the check compiles today and that it bites: each
// deliberately different schema in the fixture fails to compile, and the error names the difference.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnosticsOf, markedLines } from './markedDiagnostics.js';

const parity = path.resolve(import.meta.dirname, 'schemaParity.ts');
const divergent = path.resolve(import.meta.dirname, '../fixtures/schema-parity/divergentSchemas.ts');

describe('schema row-type parity (SQLite vs PostgreSQL)', () => {
  it('compiles for the two real schemas: every table has identical select and insert rows', () => {
    expect(diagnosticsOf(parity)).toEqual([]);
  });

  describe('a deliberately different schema does not compile', () => {
    const diagnostics = diagnosticsOf(divergent);
    const marks = markedLines(divergent);
    const at = (mark: string) =>
      diagnostics
        .filter((d) => d.line === marks.get(mark))
        .map((d) => d.text)
        .join('\n');

    it('names a column of another type (bigint instead of number)', () => {
      expect(at('a column of another type')).toContain('"widget.createdAt ($inferSelect)" | "widget.createdAt ($inferInsert)"');
    });

    it('names a column that is nullable on one side only', () => {
      expect(at('a nullable column')).toContain('widget.name ($inferSelect)');
    });

    it('names a column with a default on one side only (optional in one insert type)', () => {
      expect(at('a default on one side only')).toContain('widget.status ($inferInsert)');
      expect(at('a default on one side only')).not.toContain('$inferSelect');
    });

    it('names a column one side lacks', () => {
      expect(at('a column on one side only')).toContain('widget.status ($inferSelect)');
    });

    it('names a table one side lacks', () => {
      expect(at('a table on one side only')).toContain('other (only in the first schema)');
    });

    it('names the column when one table of the real schemas is changed', () => {
      expect(at('the real schemas with one table changed')).toContain('storageProbe.id ($inferInsert)');
    });

    it('reports nothing but the marked lines (identical shapes compile)', () => {
      const markedLineNumbers = new Set(marks.values());
      expect(diagnostics.filter((d) => !markedLineNumbers.has(d.line))).toEqual([]);
    });
  });
});
