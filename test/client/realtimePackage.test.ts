// The real-time half of the client package stands alone: its files import only each other, the
// generated files beside them and @stomp/stompjs (nothing of the repository's generated/ or src/, no
// node: module, so it is published alone and runs in browsers). That client/src/generated/ is what
// codegen writes today is test/specs/codegenDeterminism.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { clientGeneratedDir } from '../../codegen/specFiles.js';

const root = path.resolve(import.meta.dirname, '../..');
const clientSrc = path.join(root, 'client', 'src');
const folders = [path.join(clientSrc, 'realtime'), path.join(clientGeneratedDir, 'realtime')];

function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  return source.statements.flatMap((s) =>
    (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier) ? [s.moduleSpecifier.text] : [],
  );
}

describe('the real-time half of the client package', () => {
  it('imports only its own files and @stomp/stompjs', () => {
    const outside = folders
      .flatMap((folder) => fs.readdirSync(folder).map((name) => path.join(folder, name)))
      .flatMap((file) => importsOf(file).map((specifier) => ({ file: path.relative(root, file), specifier })))
      .filter(({ file, specifier }) => {
        if (specifier === '@stomp/stompjs') return false;
        if (!specifier.startsWith('.')) return true;
        const target = path.resolve(root, path.dirname(file), specifier);
        return !folders.some((folder) => target.startsWith(`${folder}${path.sep}`));
      });
    expect(outside).toEqual([]);
  });
});
