// Both specs as the checker compares them: openapi.yaml parsed, asyncapi.yaml bundled against the
// openapi.yaml next to it. For a git ref both files are written to one temp dir first, so the
// asyncapi of that ref resolves its cross-file refs against the openapi.yaml of the same ref, never
// the working tree's.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundle, readYaml } from '../bundle.js';

type Json = any;

export interface Specs {
  openapi: Json;
  asyncapi: Json | null; // null: no asyncapi.yaml (it came later than openapi.yaml)
}

export function loadSpecsFromDir(dir: string): Specs {
  const asyncapiFile = path.join(dir, 'asyncapi.yaml');
  return { openapi: readYaml(path.join(dir, 'openapi.yaml')), asyncapi: fs.existsSync(asyncapiFile) ? bundle(asyncapiFile) : null };
}

function git(root: string, args: string[]): { ok: boolean; stdout: string; stderr: string } {
  const result = spawnSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  return { ok: result.status === 0, stdout: result.stdout, stderr: result.stderr };
}

// null when the ref has no specs/openapi.yaml (a commit from before the specs existed).
export function loadSpecsAtRef(root: string, ref: string): Specs | null {
  if (!git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).ok) throw new Error(`unknown git ref: ${ref}`);
  // `./` makes the path relative to root, so this also works when the project is a subfolder of the repo.
  const show = (file: string): string | null => {
    const result = git(root, ['show', `${ref}:./specs/${file}`]);
    return result.ok ? result.stdout : null;
  };
  const openapi = show('openapi.yaml');
  if (openapi === null) return null;
  const asyncapi = show('asyncapi.yaml');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spec-diff-'));
  try {
    fs.writeFileSync(path.join(dir, 'openapi.yaml'), openapi);
    if (asyncapi !== null) fs.writeFileSync(path.join(dir, 'asyncapi.yaml'), asyncapi);
    return loadSpecsFromDir(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function describeRef(root: string, ref: string): string {
  const result = git(root, ['rev-parse', '--short', `${ref}^{commit}`]);
  return result.ok ? result.stdout.trim() : ref;
}
