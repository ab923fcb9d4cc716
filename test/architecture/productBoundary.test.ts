// The conformance package (conformance/) is a product of its own: it imports nothing of this
// repository outside itself, and only packages its package.json declares, so its packed tarball runs
// anywhere. The rest of the repository uses it only through its public surfaces: codegen and src/
// (the docs) the spec model's index, the tools and benchmarks that or the package's index; tests may look
// inside.
import { builtinModules } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const product = path.join(root, 'conformance');
const specModelSurface = path.join(product, 'specModel', 'index.ts');
const packageSurface = path.join(product, 'index.ts');

/** Which public surfaces of the product each folder outside it may import. */
const allowedSurfaces: Record<string, string[]> = {
  codegen: [specModelSurface],
  src: [specModelSurface],
  tools: [specModelSurface, packageSurface],
  bench: [specModelSurface, packageSurface],
};

interface SourceFile {
  file: string;
  text: string;
}

const specifiersOf = (text: string) => ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
const packageName = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
/** What a relative specifier names, as the source file (`./x.js` is `./x.ts` in this repository). */
const target = (file: string, specifier: string) => path.resolve(path.dirname(file), specifier).replace(/\.js$/, '.ts');
const inside = (folder: string, file: string) => !path.relative(folder, file).startsWith('..');

/** Every import that breaks the rules, as "file imports specifier: why". */
function boundaryViolations(files: SourceFile[], declaredDependencies: string[]): string[] {
  const problems: string[] = [];
  for (const { file, text } of files) {
    const where = path.relative(root, file);
    for (const specifier of specifiersOf(text)) {
      const relative = specifier.startsWith('.');
      if (inside(product, file)) {
        if (relative && !inside(product, target(file, specifier)))
          problems.push(`${where} imports ${specifier}: the product imports nothing outside conformance/`);
        const name = packageName(specifier);
        if (!relative && !specifier.startsWith('node:') && !builtinModules.includes(name) && !declaredDependencies.includes(name)) {
          problems.push(`${where} imports ${specifier}: ${name} is not a dependency in conformance/package.json`);
        }
        continue;
      }
      if (!relative || !inside(product, target(file, specifier))) continue;
      const folder = path.relative(root, file).split(path.sep)[0]!;
      const allowed = allowedSurfaces[folder];
      if (allowed && !allowed.includes(target(file, specifier))) {
        problems.push(`${where} imports ${specifier}: ${folder}/ may import only ${allowed.map((s) => path.relative(root, s)).join(' or ')}`);
      }
    }
  }
  return problems;
}

function sourceFiles(dir: string): SourceFile[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.[cm]?[jt]s$/.test(entry.name) ? [{ file: full, text: fs.readFileSync(full, 'utf8') }] : [];
  });
}

const manifest = JSON.parse(fs.readFileSync(path.join(product, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
const declared = Object.keys(manifest.dependencies);

/** The violations in made-up files, given by path under the repository and text. */
const violationsIn = (files: Record<string, string>) =>
  boundaryViolations(
    Object.entries(files).map(([relative, text]) => ({ file: path.join(root, relative), text })),
    declared,
  );

describe('the conformance product boundary', () => {
  it('catches each kind of forbidden import', () => {
    const problems = violationsIn({
      'conformance/runner/x.ts': "import { createApp } from '../../src/app.js';",
      'conformance/runner/y.ts': "import type { Handlers } from '../../generated/operations.js';",
      'conformance/specModel/z.ts': "const m = await import('left-pad');",
      'codegen/emitX.ts': "import { bundle } from '../conformance/specModel/bundle.js';",
      'src/operational/x.ts': "export { runConformance } from '../../conformance/index.js';",
      'tools/x.ts': "import { send } from '../conformance/runner/httpProbe.js';",
    });
    expect(problems.map((problem) => problem.split(':')[0])).toEqual([
      'conformance/runner/x.ts imports ../../src/app.js',
      'conformance/runner/y.ts imports ../../generated/operations.js',
      'conformance/specModel/z.ts imports left-pad',
      'codegen/emitX.ts imports ../conformance/specModel/bundle.js',
      'src/operational/x.ts imports ../../conformance/index.js',
      'tools/x.ts imports ../conformance/runner/httpProbe.js',
    ]);
  });

  it('allows the public surfaces, node built-ins and declared packages', () => {
    const inProduct = [
      "import fs from 'node:fs';",
      "import { Ajv2020 } from 'ajv/dist/2020.js';",
      "import { Client } from '@stomp/stompjs';",
      "import { bundle } from '../specModel/bundle.js';",
    ];
    expect(
      violationsIn({
        'conformance/runner/x.ts': inProduct.join('\n'),
        'codegen/emitX.ts': "import { bundle } from '../conformance/specModel/index.js';",
        'tools/x.ts': "import { wsUrl } from '../conformance/index.js';",
        'test/x.test.ts': "import { send } from '../conformance/runner/httpProbe.js';",
      }),
    ).toEqual([]);
  });

  it('holds for the product and for every folder that uses it', () => {
    const files = ['conformance', 'codegen', 'src', 'tools', 'bench'].flatMap((folder) => sourceFiles(path.join(root, folder)));
    expect(files.filter((f) => inside(product, f.file)).length).toBeGreaterThan(30);
    expect(boundaryViolations(files, declared)).toEqual([]);
  });

  it('declares each dependency at the version the repository pins', () => {
    const rootManifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
    const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
    for (const [name, version] of Object.entries(manifest.dependencies)) {
      expect(version, name).toMatch(/^\d+\.\d+\.\d+$/);
      expect(lock.packages[`node_modules/${name}`]?.version, name).toBe(version);
      const pinnedByRoot = rootManifest.dependencies?.[name] ?? rootManifest.devDependencies?.[name];
      if (pinnedByRoot) expect(pinnedByRoot, name).toBe(version);
    }
  });
});
