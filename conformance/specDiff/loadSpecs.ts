// The specs as the checker compares them: openapi.yaml parsed, asyncapi.yaml and
// internal/events.asyncapi.yaml bundled against the openapi.yaml of the same tree. For a git ref the
// files are written to one temp dir first, so the AsyncAPI documents of that ref resolve their
// cross-file refs against the openapi.yaml of the same ref, never the working tree's.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundle, readYaml } from '../specModel/bundle.js';

type Json = any;

export interface Specs {
  openapi: Json;
  asyncapi: Json | null; // null: no asyncapi.yaml (it came later than openapi.yaml)
  /** internal/events.asyncapi.yaml; null or absent where it did not exist yet (its channel was in asyncapi.yaml) */
  internalEvents?: Json | null;
}

export const internalEventsFile = path.join('internal', 'events.asyncapi.yaml');

export function loadSpecsFromDir(dir: string): Specs {
  const bundled = (file: string) => (fs.existsSync(path.join(dir, file)) ? bundle(path.join(dir, file)) : null);
  return { openapi: readYaml(path.join(dir, 'openapi.yaml')), asyncapi: bundled('asyncapi.yaml'), internalEvents: bundled(internalEventsFile) };
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
  const internalEvents = show(internalEventsFile.split(path.sep).join('/'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spec-diff-'));
  try {
    fs.writeFileSync(path.join(dir, 'openapi.yaml'), openapi);
    if (asyncapi !== null) fs.writeFileSync(path.join(dir, 'asyncapi.yaml'), asyncapi);
    if (internalEvents !== null) {
      fs.mkdirSync(path.join(dir, 'internal'));
      fs.writeFileSync(path.join(dir, internalEventsFile), internalEvents);
    }
    return loadSpecsFromDir(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function describeRef(root: string, ref: string): string {
  const result = git(root, ['rev-parse', '--short', `${ref}^{commit}`]);
  return result.ok ? result.stdout.trim() : ref;
}
