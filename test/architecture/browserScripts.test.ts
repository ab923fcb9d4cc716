// The docs pages' browser scripts are TypeScript checked as browser code: every file of their
// folders is in tsconfig.browser.json (DOM typings, no type packages), none in tsconfig.json (Node,
// no DOM), and none is plain JavaScript that no compiler checks.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const browserFolders = ['src/operational/playground', 'src/operational/signIn'];

const filesOf = (folder: string): string[] =>
  fs.readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' }).map((name) => path.join(root, folder, name));

function projectOf(configFile: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(root, configFile), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!parsed) throw new Error(`${configFile} does not parse`);
  return parsed;
}

describe("the docs pages' browser scripts", () => {
  const scripts = browserFolders.flatMap(filesOf);

  it('are TypeScript, every one', () => {
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((file) => !file.endsWith('.ts')).map((file) => path.relative(root, file))).toEqual([]);
  });

  it('are checked by tsconfig.browser.json as a browser runs them, and left out of the Node project', () => {
    const browser = projectOf('tsconfig.browser.json');
    expect(browser.options.types).toEqual([]);
    expect(browser.options.lib).toContain('lib.dom.d.ts');
    expect(scripts.filter((file) => !browser.fileNames.includes(file)).map((file) => path.relative(root, file))).toEqual([]);
    const node = projectOf('tsconfig.json');
    expect(node.fileNames.filter((file) => scripts.includes(file)).map((file) => path.relative(root, file))).toEqual([]);
  });
});
