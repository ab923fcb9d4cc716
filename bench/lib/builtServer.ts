// The server as `npm start` runs it: compiled JavaScript in dist/, not tsx (whose transpiled code
// carries esbuild's per-function name helpers and cost about 6% more CPU per list request). Built
// first when any input is newer than the build, so that a benchmark never measures yesterday's code.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { staleBuildInput } from '../../src/index.js';

export const builtServerEntry = 'dist/server/main.js';
/** What `npm start` ran before the server was bundled: a baseline checkout of that time has only this. */
const unbundledServerEntry = 'dist/src/main.js';

/** `builtServerEntry` (or, in an older checkout, the unbundled entry it starts), built first when stale; relative to `root`. */
export function freshBuiltServer(root: string, progress: (line: string) => void = () => {}): string {
  const stale = staleBuildInput(root);
  if (stale !== null) {
    progress(`building dist/ (${stale} is newer than the build)`);
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return fs.existsSync(path.join(root, builtServerEntry)) ? builtServerEntry : unbundledServerEntry;
}
