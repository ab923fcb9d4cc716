// Compiles a fixture with the project's tsconfig and lines up its diagnostics with the lines marked
// `// expect: <what>`, so a type-level test says which line must fail and why.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const tsconfig = path.resolve(import.meta.dirname, '../../tsconfig.json');

export function diagnosticsOf(file: string): { line: number; text: string }[] {
  const config: unknown = ts.readConfigFile(tsconfig, (file) => ts.sys.readFile(file)).config;
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(tsconfig));
  const program = ts.createProgram([file], { ...options, noEmit: true });
  const source = program.getSourceFile(file)!;
  return [...program.getSemanticDiagnostics(source), ...program.getSyntacticDiagnostics(source)].map((d) => ({
    line: source.getLineAndCharacterOfPosition(d.start ?? 0).line + 1,
    text: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  }));
}

export function markedLines(file: string): Map<string, number> {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  return new Map(
    lines.flatMap((line, i) => {
      const mark = /\/\/ expect: (.+)$/.exec(line)?.[1];
      return mark ? [[mark, i + 1] as const] : [];
    }),
  );
}
