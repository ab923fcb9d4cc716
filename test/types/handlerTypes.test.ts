// The contract bites at compile time: handlers that return an undocumented status, a wrong body,
// or that are missing / unknown to the spec are rejected by tsc through generated/operations.ts.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnosticsOf, markedLines } from './markedDiagnostics.js';

const fixtures = path.resolve(import.meta.dirname, '../fixtures/handler-types');

describe('generated handler types', () => {
  const wrong = path.join(fixtures, 'wrongHandlers.ts');
  const diagnostics = diagnosticsOf(wrong);
  const marks = markedLines(wrong);
  const at = (mark: string) =>
    diagnostics
      .filter((d) => d.line === marks.get(mark))
      .map((d) => d.text)
      .join('\n');

  it('rejects a status the spec does not document for the operation', () => {
    expect(at('undocumented status')).toMatch(/418/);
  });

  it('rejects a body field the response schema does not have', () => {
    expect(at('wrong body field')).toMatch(/nickname/);
  });

  it('rejects a 201 without the Location header the spec requires', () => {
    expect(at('missing Location header')).toMatch(/headers/);
  });

  it('rejects a handler for an operation the spec lacks', () => {
    expect(at('operation not in the spec')).toMatch(/getWeather/);
  });

  it('rejects a handler map that misses operations', () => {
    expect(at('missing handlers')).toMatch(/listTripPlans|missing the following properties/);
  });

  it('reports nothing but the marked lines', () => {
    const markedLineNumbers = new Set(marks.values());
    expect(diagnostics.filter((d) => !markedLineNumbers.has(d.line))).toEqual([]);
  });

  it('compiles the same shapes written right without any error', () => {
    expect(diagnosticsOf(path.join(fixtures, 'rightHandlers.ts'))).toEqual([]);
  });
});
