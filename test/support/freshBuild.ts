// `npm start` runs the build in dist/ (made by `npm install`/`npm ci`, or `npm run build`). A test
// that starts it must not test yesterday's code: when any input of the build is newer than the
// build (or there is none), this builds again first. Two test files may ask at once, so the build
// runs under a lock (a folder: mkdir is atomic), and the second one finds it fresh afterwards.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { staleBuildInput } from '../../src/composition/buildFreshness.js';
import { repoRoot } from './serviceProcess.js';

const lock = path.join(repoRoot, '.tmp', 'build.lock');
const LOCK_LIMIT_MS = 120_000;

const isFresh = () => staleBuildInput(repoRoot) === null;

export async function ensureFreshBuild(): Promise<void> {
  if (isFresh()) return;
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + LOCK_LIMIT_MS;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // Left behind by a run that was killed mid-build: taken over once it is that old.
      if (Date.now() > deadline || Date.now() - fs.statSync(lock).mtimeMs > LOCK_LIMIT_MS) fs.rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    if (!isFresh()) execFileSync('npm', ['run', '--silent', 'build'], { cwd: repoRoot, stdio: 'inherit' });
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
