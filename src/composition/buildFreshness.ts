// `npm start` runs the build in dist/. After a source edit that build is yesterday's code, and a
// person who edited src/ and ran `npm start` would be served it without a word: the start checks
// whether any input of the build is newer than the build and says so. Only when the sources are
// there (a repository checkout); a deployment of dist/ alone has nothing to compare.
import fs from 'node:fs';
import path from 'node:path';

/**
 * What tsconfig.build.json compiles and tools/build/copyRuntimeFiles.ts copies or compiles (the
 * playground's script takes in the client package), relative to the repository.
 */
export const BUILD_INPUTS = [
  'src',
  'generated',
  'conformance/specModel',
  'specs',
  'tools/build',
  'client/src',
  'tsconfig.json',
  'tsconfig.build.json',
  'tsconfig.browser.json',
];

/** Written last by the build (copyRuntimeFiles.ts): its time is the build's. */
export const buildStamp = (repoRoot: string): string => path.join(repoRoot, 'dist', 'build-complete');

function newestInput(entry: string): { mtimeMs: number; file: string } {
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return { mtimeMs: stat.mtimeMs, file: entry };
  let newest = { mtimeMs: stat.mtimeMs, file: entry };
  for (const name of fs.readdirSync(entry)) {
    const candidate = newestInput(path.join(entry, name));
    if (candidate.mtimeMs > newest.mtimeMs) newest = candidate;
  }
  return newest;
}

/** null when the build is at least as new as every input (or there is no source to compare); else the newer input. */
export function staleBuildInput(repoRoot: string): string | null {
  const stamp = buildStamp(repoRoot);
  if (!fs.existsSync(path.join(repoRoot, 'src'))) return null;
  if (!fs.existsSync(stamp)) return 'dist/ (no complete build)';
  const builtAt = fs.statSync(stamp).mtimeMs;
  for (const input of BUILD_INPUTS) {
    const full = path.join(repoRoot, input);
    if (!fs.existsSync(full)) continue;
    const newest = newestInput(full);
    if (newest.mtimeMs > builtAt) return path.relative(repoRoot, newest.file);
  }
  return null;
}
