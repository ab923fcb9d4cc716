// tsc as a client team would run it on generated code plus their own: strict, ESM on Node
// (NodeNext, so relative imports need their `.js`), DOM typings for fetch (no @types/node: the
// client code must not depend on Node), and nothing from this project's tsconfig.
import ts from 'typescript';

export const clientCompilerOptions: ts.CompilerOptions = {
  strict: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: [],
  skipLibCheck: true,
  verbatimModuleSyntax: true,
  noEmit: true,
};

/**
 * Type-checks `files` (and what they import); with `outDir`, also emits JavaScript there.
 * Returns every diagnostic as `file(line,col): TSxxxx message`, empty when clean.
 */
export function compile(files: string[], overrides: ts.CompilerOptions = {}): string[] {
  const options = { ...clientCompilerOptions, ...overrides };
  if (options.outDir) options.noEmit = false;
  const program = ts.createProgram(files, options);
  const diagnostics = [...ts.getPreEmitDiagnostics(program)];
  if (diagnostics.length === 0 && options.outDir) diagnostics.push(...program.emit().diagnostics);
  return diagnostics.map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (!d.file) return `TS${d.code} ${text}`;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
    return `${d.file.fileName}(${line + 1},${character + 1}): TS${d.code} ${text}`;
  });
}
