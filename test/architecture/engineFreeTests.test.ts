// The test files the `postgres` project leaves to `sqlite` (test/support/engineFreeTests.ts) must
// stay what their lists say: an engine-free one may not reach, through its imports and theirs, a
// module that opens a database; an engine-indifferent one may not sign in, call an API operation,
// open a STOMP session or use the database port. A file that starts doing so must leave its list,
// and runs on both engines again.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { engineFreeTests, engineIndifferentTests } from '../support/engineFreeTests.js';

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

/** What reaches the database beyond the app's start: a sign-in, an API operation, a STOMP session, the port itself. */
const reachesDatabase = /signIn|\/api\/v1\/|connectStomp|openRawStomp|services\.db|testAppDatabase|openTestDatabasePort|freshPostgresDatabase/;

describe('the tests left to the sqlite project', () => {
  it.each(engineFreeTests)('%s exists and reaches nothing that opens a database', (file) => {
    expect(fs.existsSync(path.join(root, file))).toBe(true);
    expect([...reachable(file)].filter((reached) => opensDatabase.has(reached))).toEqual([]);
  });

  it('would see a test app (the check itself can fail)', () => {
    expect([...reachable('test/http/routing.test.ts')].filter((reached) => opensDatabase.has(reached))).not.toEqual([]);
  });

  it.each(engineIndifferentTests)('%s exists and asks its app nothing that reaches the database', (file) => {
    expect(fs.existsSync(path.join(root, file))).toBe(true);
    expect(fs.readFileSync(path.join(root, file), 'utf8').match(reachesDatabase)?.[0]).toBeUndefined();
  });

  it('would see a sign-in (the check itself can fail)', () => {
    expect(reachesDatabase.test(fs.readFileSync(path.join(root, 'test/http/routing.test.ts'), 'utf8'))).toBe(true);
  });
});
