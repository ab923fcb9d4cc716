// An earlier revision of this repository to run next to the current one in the same benchmark run:
// its files (git archive) in a directory of their own, with this checkout's node_modules linked in,
// so only the service's own code differs. The revision must use the same dependencies.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface BaselineCheckout {
  /** the directory to run src/main.ts in */
  root: string;
  /** the commit the revision named */
  commit: string;
}

export function checkOutBaseline(repoRoot: string, revision: string, into: string): BaselineCheckout {
  const commit = execFileSync('git', ['rev-parse', '--verify', `${revision}^{commit}`], { cwd: repoRoot, encoding: 'utf8' }).trim();
  const root = path.join(into, `baseline-${commit.slice(0, 12)}`);
  fs.mkdirSync(root, { recursive: true });
  const archive = execFileSync('git', ['archive', '--format=tar', commit], { cwd: repoRoot, maxBuffer: 512 * 1024 ** 2 });
  execFileSync('tar', ['-x', '-C', root], { input: archive });
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  return { root, commit };
}
