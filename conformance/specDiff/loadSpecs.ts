// The specs of a git ref as the checker compares them (the spec model's SpecFolder). The files are
// written to one temp dir first, so the AsyncAPI documents of that ref resolve their cross-file refs
// against the openapi.yaml of the same ref, never the working tree's.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSpecFolder, specFolderLayout, type SpecFolder } from '../specModel/index.js';

function git(root: string, args: string[]): { ok: boolean; stdout: string; stderr: string } {
  const result = spawnSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  return { ok: result.status === 0, stdout: result.stdout, stderr: result.stderr };
}

// null when the ref has no specs/openapi.yaml (a commit from before the specs existed).
export function loadSpecsAtRef(root: string, ref: string): SpecFolder | null {
  if (!git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).ok) throw new Error(`unknown git ref: ${ref}`);
  // `./` makes the path relative to root, so this also works when the project is a subfolder of the repo.
  const show = (file: string): string | null => {
    const result = git(root, ['show', `${ref}:./specs/${file}`]);
    return result.ok ? result.stdout : null;
  };
  const texts = new Map(Object.values(specFolderLayout).map((file) => [file, show(file.split(path.sep).join('/'))]));
  if (texts.get(specFolderLayout.openapi) === null) return null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spec-diff-'));
  try {
    for (const [file, text] of texts) {
      if (text === null) continue;
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    return loadSpecFolder(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function describeRef(root: string, ref: string): string {
  const result = git(root, ['rev-parse', '--short', `${ref}^{commit}`]);
  return result.ok ? result.stdout.trim() : ref;
}
