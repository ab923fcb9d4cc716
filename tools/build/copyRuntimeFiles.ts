// The second half of `npm run build`: tsc compiles only TypeScript, so the files the compiled code
// reads at run time are copied next to it, at the same place relative to the code as in the source
// tree, the docs pages' browser scripts are compiled there (buildBrowserScripts.ts), and the server
// is bundled into dist/server/ for `npm start` (bundleServer.ts). Every path the code builds from its own location (import.meta.dirname) then resolves in
// dist/ as in the repository, and dist/ serves the specs it was compiled from (the served
// openapi.yaml and the compiled validators cannot disagree). Compiled with the rest
// (tsconfig.build.json) and run as dist/tools/build/copyRuntimeFiles.js, so the build needs no
// TypeScript runner.
import fs from 'node:fs';
import path from 'node:path';
import { buildStamp } from '../../src/composition/buildFreshness.js';
import { buildBrowserScripts } from './buildBrowserScripts.js';
import { bundleServer } from './bundleServer.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const distRoot = path.join(repoRoot, 'dist');

/** Folders and files read at run time, relative to the repository (and to dist/). */
const runtimeFiles = [
  // served as written (/openapi.yaml), and read for the OpenAI planner's answer schema
  'specs',
  // the bundled asyncapi.yaml served at /asyncapi.yaml, and the ahead-of-time validators (plain
  // JavaScript that generated/validators.ts imports; tsc does not copy .js files)
  'generated/asyncapi.bundled.yaml',
  'generated/validators',
  'src/db/migrations',
  'src/catalogue/data',
  // the dashboard's browser scripts, served as files
  'src/operational/dashboard',
];

for (const relative of runtimeFiles) {
  const target = path.join(distRoot, relative);
  fs.rmSync(target, { recursive: true, force: true });
  fs.cpSync(path.join(repoRoot, relative), target, { recursive: true, filter: (source) => !source.endsWith('.ts') });
}

await buildBrowserScripts(repoRoot);
await bundleServer(repoRoot);

// Written last: a build that got this far is whole. Its time is the build's, for the tests that
// start `npm start` and rebuild when a source is newer (test/support/freshBuild.ts).
fs.writeFileSync(buildStamp(repoRoot), `${new Date().toISOString()}\n`);
