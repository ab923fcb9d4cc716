// No function in src/ is longer than 100 lines: a long closure hides its steps from an outline and
// from tests (each step cannot be called, read or replaced alone). A function that grows past the
// bound is split into named steps over an explicit state record, or a small class where state lives.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const MAX_LINES = 100;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

interface FunctionSpan {
  where: string;
  lines: number;
}

/** Every function of a source text (declarations, expressions, arrows, methods, accessors) with its length in lines. */
function functionSpans(file: string, text: string): FunctionSpan[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const spans: FunctionSpan[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      spans.push({ where: `${file}:${first + 1}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return spans;
}

describe(`functions in src/ are at most ${MAX_LINES} lines`, () => {
  it('measures a function, an arrow and a method', () => {
    const body = Array.from({ length: 3 }, () => '  step();').join('\n');
    const text = `function a() {\n${body}\n}\nconst b = () => {\n${body}\n};\nclass C {\n  m() {\n${body}\n  }\n}\n`;
    expect(functionSpans('sample.ts', text).map((s) => s.lines)).toEqual([5, 5, 5]);
  });

  it('holds for every file under src/', () => {
    const tooLong = sourceFiles(path.join(root, 'src'))
      .flatMap((file) => functionSpans(path.relative(root, file), fs.readFileSync(file, 'utf8')))
      .filter((span) => span.lines > MAX_LINES)
      .map((span) => `${span.where} (${span.lines} lines)`);
    expect(tooLong).toEqual([]);
  });
});
