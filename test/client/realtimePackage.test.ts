// The real-time half of the client package stands alone: its files import only each other, the
// generated files beside them and @stomp/stompjs (nothing of the repository's generated/ or src/, no
// node: module, so it is published alone and runs in browsers), and client/src/generated/realtime/
// is what codegen writes from the specs today.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { clientRealtimeDir, emitClientRealtime } from '../../codegen/client/emitClientRealtime.js';

const root = path.resolve(import.meta.dirname, '../..');
const clientSrc = path.join(root, 'client', 'src');
const folders = [path.join(clientSrc, 'realtime'), clientRealtimeDir];

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

  it('holds in client/src/generated/realtime/ what codegen writes from the specs', async () => {
    const files = await emitClientRealtime();
    expect(fs.readdirSync(clientRealtimeDir).sort()).toEqual(Object.keys(files).sort());
    for (const [name, content] of Object.entries(files))
      expect(fs.readFileSync(path.join(clientRealtimeDir, name), 'utf8'), `client/src/generated/realtime/${name} is stale: run npm run codegen`).toBe(content);
  });
});
