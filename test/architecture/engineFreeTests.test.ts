// The test files the `postgres` project leaves to `sqlite` (test/support/engineFreeTests.ts) must
// stay free of a database: none of them may reach, through its imports and theirs, a module that
// opens one. A file that starts using a test app must leave that list, and runs on both engines again.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { engineFreeTests } from '../support/engineFreeTests.js';

const root = path.resolve(import.meta.dirname, '../..');

/** What opens a database of the test engine, or of either engine. */
const opensDatabase = new Set([
  'test/support/testApp.ts',
  'test/support/testDatabase.ts',
  'test/support/postgres.ts',
  'src/composition/openDatabase.ts',
  'src/db/database.ts',
  'src/db/postgresDatabase.ts',
]);

/** The relative specifiers a file loads when it runs: its imports and re-exports but the type-only ones (erased), and its dynamic imports. */
function loadedSpecifiers(file: string, text: string): string[] {
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier)) specifiers.push(node.moduleSpecifier.text);
    else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      specifiers.push(node.moduleSpecifier.text);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0]))
      specifiers.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest));
  return specifiers.filter((specifier) => specifier.startsWith('.'));
}

/** Every file of the repository `file` loads, directly or through other files of it. */
function reachable(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const specifier of loadedSpecifiers(file, fs.readFileSync(path.join(root, file), 'utf8'))) {
    const target = path.relative(root, path.resolve(path.dirname(path.join(root, file)), specifier)).replace(/\.js$/, '.ts');
    if (fs.existsSync(path.join(root, target))) reachable(target, seen);
  }
  return seen;
}

describe('the tests left to the sqlite project', () => {
  it.each(engineFreeTests)('%s exists and reaches nothing that opens a database', (file) => {
    expect(fs.existsSync(path.join(root, file))).toBe(true);
    expect([...reachable(file)].filter((reached) => opensDatabase.has(reached))).toEqual([]);
  });

  it('would see a test app (the check itself can fail)', () => {
    expect([...reachable('test/http/routing.test.ts')].filter((reached) => opensDatabase.has(reached))).not.toEqual([]);
  });
});
