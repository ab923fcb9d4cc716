// The tools (tools/) and the benchmarks (bench/) use the service only through its public entry,
// src/index.ts: what they lean on is listed there, and the rest of src/ may move without breaking
// them. A few files are let past it, each for the reason given below. The entry stays small: each of
// its exports is imported by a tool or a benchmark.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const src = path.join(root, 'src');
const entry = path.join(src, 'index.ts');
const users = ['tools', 'bench'];

/** A file and the one module of src/ (other than the entry) it may import, and why. */
const letPast: { file: string; module: string }[] = [
  // The build's second step runs before dist/ is whole (it copies what the compiled entry needs),
  // so it cannot load the entry; the stamp's path is all it needs of the service.
  { file: 'tools/build/copyRuntimeFiles.ts', module: 'src/composition/buildFreshness.ts' },
  // The same step compiles the docs pages' browser scripts: where they are written and where the
  // server finds them compiled is all it needs of the service.
  { file: 'tools/build/buildBrowserScripts.ts', module: 'src/operational/browserScripts.ts' },
  // A peer server the list route is measured against runs the service's SQL text and loads
  // nothing else of the service, which would weigh on the peer's memory and collections.
  { file: 'bench/peers/peerListRoute.ts', module: 'src/trips/tripPlanList.ts' },
  // The Fastify peer likewise, on each engine: the same list SQL text (and its row type), and the
  // same live-session SQL text (its module imports types only).
  { file: 'bench/peers/peerDatabase.ts', module: 'src/trips/tripPlanList.ts' },
  ...['sqlite', 'postgres'].flatMap((engine) => [
    { file: `bench/peers/peerDatabase.${engine}.ts`, module: 'src/trips/tripPlanList.ts' },
    { file: `bench/peers/peerDatabase.${engine}.ts`, module: 'src/auth/liveSessionLookup.ts' },
  ]),
];

interface SourceFile {
  file: string;
  text: string;
}

const specifiersOf = (text: string) => ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
/** What a relative specifier names, as the source file (`./x.js` is `./x.ts` in this repository). */
const target = (file: string, specifier: string) => path.resolve(path.dirname(file), specifier).replace(/\.js$/, '.ts');
const inside = (folder: string, file: string) => !path.relative(folder, file).startsWith('..');

/** Every import of src/ past its entry, as "file imports specifier". */
function deepImports(files: SourceFile[]): string[] {
  return files.flatMap(({ file, text }) => {
    const where = path.relative(root, file);
    return specifiersOf(text)
      .filter((specifier) => specifier.startsWith('.'))
      .filter((specifier) => {
        const module = target(file, specifier);
        if (!inside(src, module) || module === entry) return false;
        return !letPast.some((allowed) => allowed.file === where && path.join(root, allowed.module) === module);
      })
      .map((specifier) => `${where} imports ${specifier}`);
  });
}

function sourceFiles(dir: string): SourceFile[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.[cm]?[jt]s$/.test(entry.name) ? [{ file: full, text: fs.readFileSync(full, 'utf8') }] : [];
  });
}

/** The names a file imports from the entry. */
function namesFromEntry({ file, text }: SourceFile): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) return [];
    const specifier = statement.moduleSpecifier.text;
    if (!specifier.startsWith('.') || target(file, specifier) !== entry) return [];
    const bindings = statement.importClause?.namedBindings;
    return bindings && ts.isNamedImports(bindings) ? bindings.elements.map((e) => (e.propertyName ?? e.name).text) : [];
  });
}

/** The names the entry exports. */
function entryExports(text: string): string[] {
  const source = ts.createSourceFile(entry, text, ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) => {
    if (!ts.isExportDeclaration(statement) || !statement.exportClause || !ts.isNamedExports(statement.exportClause)) return [];
    return statement.exportClause.elements.map((e) => e.name.text);
  });
}

const madeUp = (files: Record<string, string>) => deepImports(Object.entries(files).map(([relative, text]) => ({ file: path.join(root, relative), text })));

describe('tools and benchmarks use src/ through src/index.ts', () => {
  it('catches an import past the entry, of every kind', () => {
    expect(
      madeUp({
        'tools/x.ts': "import { loadConfig } from '../src/config/config.js';",
        'tools/mock/y.ts': "import type { Logger } from '../../src/kernel/logger.js';",
        'bench/z.ts': "const m = await import('../src/composition/app.js');",
        'bench/lib/w.ts': "export { openDatabasePort } from '../../src/db/openDatabasePort.js';",
        'bench/peers/other.ts': "import { listOwnTripPlansSql } from '../../src/trips/tripPlanList.js';",
      }),
    ).toEqual([
      'tools/x.ts imports ../src/config/config.js',
      'tools/mock/y.ts imports ../../src/kernel/logger.js',
      'bench/z.ts imports ../src/composition/app.js',
      'bench/lib/w.ts imports ../../src/db/openDatabasePort.js',
      'bench/peers/other.ts imports ../../src/trips/tripPlanList.js',
    ]);
  });

  it('allows the entry, the files let past it, and everything outside src/', () => {
    expect(
      madeUp({
        'tools/x.ts':
          "import { loadConfig } from '../src/index.js';\nimport { wsUrl } from '../conformance/index.js';\nimport { routes } from '../generated/routes.js';",
        'bench/lib/y.ts': "import type { TripSort } from '../../src/index.js';\nimport { textTable } from './textTable.js';",
        'tools/build/copyRuntimeFiles.ts': "import { buildStamp } from '../../src/composition/buildFreshness.js';",
        'bench/peers/peerListRoute.ts': "import { listOwnTripPlansSql } from '../../src/trips/tripPlanList.js';",
      }),
    ).toEqual([]);
  });

  it('holds for every file of tools/ and bench/', () => {
    const files = users.flatMap((folder) => sourceFiles(path.join(root, folder)));
    expect(files.length).toBeGreaterThan(50);
    expect(deepImports(files)).toEqual([]);
  });

  it('keeps the entry to what they use: each export is imported by a tool or a benchmark', () => {
    const used = new Set(users.flatMap((folder) => sourceFiles(path.join(root, folder))).flatMap(namesFromEntry));
    const exported = entryExports(fs.readFileSync(entry, 'utf8'));
    expect(exported.length).toBeGreaterThan(10);
    expect(exported.filter((name) => !used.has(name))).toEqual([]);
  });
});
