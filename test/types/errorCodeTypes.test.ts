// Error codes are data in openapi.yaml (components.schemas.ErrorCode) and types in the server: a code
// that is not in the spec, or one used where the spec says it does not travel (an HTTP status for a
// STOMP-only code, an ERROR frame for an HTTP code), does not compile.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnosticsOf, markedLines } from './markedDiagnostics.js';

const fixture = path.resolve(import.meta.dirname, '../fixtures/error-codes/errorCodeUses.ts');

describe('error code types', () => {
  const diagnostics = diagnosticsOf(fixture);
  const marks = markedLines(fixture);
  const at = (mark: string) =>
    diagnostics
      .filter((d) => d.line === marks.get(mark))
      .map((d) => d.text)
      .join('\n');

  it('rejects an unknown code in AppError', () => {
    expect(at('unknown code in AppError')).toMatch(/"TRIP999"/);
  });

  it('rejects a STOMP-only code as an HTTP error (it has no HTTP status)', () => {
    expect(at('STOMP-only code as an HTTP error')).toMatch(/"WS001"/);
  });

  it('rejects an unknown code as ErrorCode', () => {
    expect(at('unknown code as ErrorCode')).toMatch(/"NOPE001"/);
  });

  it('rejects an HTTP-only code in a STOMP ERROR frame', () => {
    expect(at('HTTP-only code in an ERROR frame')).toMatch(/"TRIP101"/);
  });

  it('rejects an ERROR-frame code on the errors channel', () => {
    expect(at('ERROR-frame code on the errors channel')).toMatch(/"WS001"/);
  });

  it('rejects an unknown code in an ErrorResponse published on the errors channel', () => {
    expect(at('unknown code on the errors channel')).toMatch(/"AI999"/);
  });

  it('has no table row for an unknown code', () => {
    expect(at('unknown code in the table')).toMatch(/TRIP999/);
  });

  it('compiles every use of a known code where the spec allows it (nothing but the marked lines fails)', () => {
    const marked = new Set(marks.values());
    expect(marks.size).toBe(7);
    expect(diagnostics.filter((d) => !marked.has(d.line))).toEqual([]);
  });
});
