// The server as `npm start` runs it: compiled JavaScript in dist/, not tsx (whose transpiled code
// carries esbuild's per-function name helpers and cost about 6% more CPU per list request). Built
// first when any input is newer than the build, so that a benchmark never measures yesterday's code.
import { execFileSync } from 'node:child_process';
import { staleBuildInput } from '../../src/index.js';

export const builtServerEntry = 'dist/server/main.js';

/** `builtServerEntry`, built first when stale; relative to `root`. */
export function freshBuiltServer(root: string, progress: (line: string) => void = () => {}): string {
  const stale = staleBuildInput(root);
  if (stale !== null) {
    progress(`building dist/ (${stale} is newer than the build)`);
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return builtServerEntry;
}
