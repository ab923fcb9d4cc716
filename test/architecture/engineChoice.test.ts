// The engine is chosen in one place: src/db/ (the port, its probes, its plain SQL) and the
// composition root (which engine's statement sets the port carries, composition/engineStatements.ts).
// Everywhere else a statement that differs per engine is a port `<thing>.ts` with its two
// implementations next to it, `<thing>.sqlite.ts` and `<thing>.postgres.ts`, which only the
// composition root imports; no other file asks which engine it runs on.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const src = path.join(root, 'src');

/** Where the engine may be chosen: the database folder and the composition root. */
const choosers = ['db/', 'composition/', 'main.ts'];
const chooses = (file: string) => choosers.some((place) => file.startsWith(place));

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

const files = sourceFiles(src).map((full) => ({ file: path.relative(src, full).split(path.sep).join('/'), text: fs.readFileSync(full, 'utf8') }));

/** Whether the file's code (not its comments or strings) names `dialect`: `port.dialect`, `{ dialect }`, … */
function readsDialect(file: string, text: string): boolean {
  let found = false;
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && node.text === 'dialect') found = true;
    else ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest));
  return found;
}

const engineFile = /\.(sqlite|postgres)\.ts$/;

describe('the engine is chosen in one place', () => {
  it('no file outside src/db/ and the composition root reads the dialect', () => {
    const readers = files.filter(({ file, text }) => !chooses(file) && readsDialect(file, text)).map(({ file }) => file);
    expect(readers).toEqual([]);
  });

  it('every engine-specific file has its port and the other engine next to it', () => {
    const names = new Set(files.map(({ file }) => file));
    const unpaired = files
      .filter(({ file }) => !file.startsWith('db/') && engineFile.test(file))
      .flatMap(({ file }) => {
        const port = file.replace(engineFile, '.ts');
        const other = file.replace(engineFile, (_, engine: string) => (engine === 'sqlite' ? '.postgres.ts' : '.sqlite.ts'));
        return [port, other].filter((needed) => !names.has(needed)).map((needed) => `${file} has no ${needed}`);
      });
    expect(unpaired).toEqual([]);
  });

  it('only the composition root imports an engine-specific file', () => {
    const importers = files.flatMap(({ file, text }) =>
      ts
        .preProcessFile(text, true, true)
        .importedFiles.map((f) => f.fileName)
        .filter((specifier) => /\.(sqlite|postgres)\.js$/.test(specifier) && !file.startsWith('composition/'))
        .map((specifier) => `${file} imports ${specifier}`),
    );
    expect(importers).toEqual([]);
  });
});
