// Which folder of src/ may import which: the table in ARCHITECTURE.md, held against the imports of
// every file under src/ (static, type-only, re-exports and dynamic imports alike). A unit is a
// folder directly under src/, or a file directly in it; anything outside src/ counts as its
// top-level folder (`generated`, `codegen`).
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const src = path.join(root, 'src');
const ANYTHING = '*';

/** The table between the import-rules markers of ARCHITECTURE.md: unit → the units it may import. */
function readRules(markdown: string): Map<string, Set<string> | typeof ANYTHING> {
  const start = markdown.indexOf('<!-- import rules');
  const end = markdown.indexOf('<!-- /import rules -->');
  if (start < 0 || end < start) throw new Error('ARCHITECTURE.md has no import rules table');
  const rules = new Map<string, Set<string> | typeof ANYTHING>();
  for (const line of markdown.slice(start, end).split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length !== 4 || !cells[1]!.startsWith('`')) continue;
    const unit = unitName(cells[1]!);
    const allowed = cells[2]!;
    rules.set(unit, allowed === 'anything' ? ANYTHING : new Set(allowed === '—' ? [] : allowed.split(',').map(unitName)));
  }
  return rules;
}

const unitName = (cell: string) => cell.trim().replace(/^`|`$/g, '').replace(/\/$/, '');

/** The unit a path belongs to. */
function unitOf(file: string): string {
  const fromSrc = path.relative(src, file);
  if (fromSrc.startsWith('..')) return path.relative(root, file).split(path.sep)[0]!;
  const [first, ...rest] = fromSrc.split(path.sep);
  return rest.length === 0 ? first!.replace(/\.js$/, '.ts') : first!;
}

/** The relative module specifiers a source text imports, of every kind. */
function importedSpecifiers(text: string): string[] {
  return allSpecifiers(text).filter((name) => name.startsWith('.'));
}

const allSpecifiers = (text: string) => ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : /\.[cm]?tsx?$/.test(entry.name) ? [full] : [];
  });
}

interface Edge {
  from: string;
  to: string;
  where: string;
}

const edges: Edge[] = sourceFiles(src).flatMap((file) =>
  importedSpecifiers(fs.readFileSync(file, 'utf8'))
    .map((specifier) => ({
      from: unitOf(file),
      to: unitOf(path.resolve(path.dirname(file), specifier)),
      where: `${path.relative(root, file)} imports ${specifier}`,
    }))
    .filter((edge) => edge.from !== edge.to),
);
const rules = readRules(fs.readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8'));
const units = new Set(
  fs
    .readdirSync(src, { withFileTypes: true })
    .filter((e) => e.isDirectory() || e.name.endsWith('.ts'))
    .map((e) => e.name),
);

/** A cycle in the graph, as a path that ends where it starts, or null. */
function findCycle(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

describe('import rules (ARCHITECTURE.md)', () => {
  it('finds imports of every kind', () => {
    const text = [
      "import a from './a.js';",
      "import type { B } from '../b/b.js';",
      "export { c } from './c.js';",
      "const d = await import('./d.js');",
      "import 'node:fs';",
    ].join('\n');
    expect(importedSpecifiers(text)).toEqual(['./a.js', '../b/b.js', './c.js', './d.js']);
  });

  it('names every folder and file of src/ in the table, and nothing else', () => {
    expect([...rules.keys()].sort()).toEqual([...units].sort());
  });

  it('lets each folder import only what its row allows (and generated/)', () => {
    const forbidden = edges.filter(({ from, to }) => {
      const allowed = rules.get(from);
      return to !== 'generated' && allowed !== ANYTHING && !allowed?.has(to);
    });
    expect(forbidden.map((e) => `${e.from} → ${e.to}: ${e.where}`)).toEqual([]);
  });

  it('has no cycle between folders, in the code or in the table', () => {
    const actual = new Map<string, Set<string>>();
    for (const { from, to } of edges) actual.set(from, (actual.get(from) ?? new Set()).add(to));
    expect(findCycle(actual)).toBeNull();
    const table = new Map([...rules].map(([unit, allowed]) => [unit, allowed === ANYTHING ? new Set<string>() : allowed]));
    expect(findCycle(table)).toBeNull();
    // Nothing below the composition files imports them.
    const composition = new Set([...rules].filter(([, allowed]) => allowed === ANYTHING).map(([unit]) => unit));
    for (const [unit, allowed] of table)
      if (!composition.has(unit))
        expect(
          [...allowed].filter((u) => composition.has(u)),
          unit,
        ).toEqual([]);
  });

  it('keeps itinerary/ pure: it imports generated/ types and nothing else, no package, no node: module', () => {
    expect(edges.filter((e) => e.from === 'itinerary' && e.to !== 'generated').map((e) => e.where)).toEqual([]);
    expect(rules.get('itinerary')).toEqual(new Set());
    const packages = sourceFiles(path.join(src, 'itinerary')).flatMap((file) =>
      allSpecifiers(fs.readFileSync(file, 'utf8')).filter((name) => !name.startsWith('.')),
    );
    expect(packages).toEqual([]);
  });

  it('notices a cycle', () => {
    expect(
      findCycle(
        new Map([
          ['trips', new Set(['generation'])],
          ['generation', new Set(['trips'])],
        ]),
      ),
    ).toEqual(['trips', 'generation', 'trips']);
  });
});
