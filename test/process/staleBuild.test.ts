// `npm start` runs dist/: a build older than any of its inputs is named, so a person who edited the
// sources is not served yesterday's code without a word (main.ts refuses to start outside production).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { staleBuildInput } from '../../src/composition/buildFreshness.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

/** A checkout with one source and one spec, built at `builtAt` (seconds since the epoch). */
function checkout(builtAt: number | null): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stale-build-'));
  roots.push(root);
  for (const [file, text] of [
    ['src/main.ts', 'export {};'],
    ['specs/openapi.yaml', 'openapi: 3.1.0'],
  ] as const) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
    fs.utimesSync(path.join(root, file), 1000, 1000);
  }
  for (const folder of ['src', 'specs']) fs.utimesSync(path.join(root, folder), 1000, 1000);
  if (builtAt !== null) {
    fs.mkdirSync(path.join(root, 'dist'));
    fs.writeFileSync(path.join(root, 'dist/build-complete'), 'built');
    fs.utimesSync(path.join(root, 'dist/build-complete'), builtAt, builtAt);
  }
  return root;
}

describe('build freshness', () => {
  it('a build newer than every input is fresh', () => {
    expect(staleBuildInput(checkout(2000))).toBeNull();
  });

  it('names the input edited after the build', () => {
    const root = checkout(2000);
    fs.utimesSync(path.join(root, 'specs/openapi.yaml'), 3000, 3000);
    expect(staleBuildInput(root)).toBe('specs/openapi.yaml');
  });

  it('a checkout never built says so', () => {
    expect(staleBuildInput(checkout(null))).toBe('dist/ (no complete build)');
  });

  it('without sources (dist/ deployed alone) there is nothing to compare', () => {
    const root = checkout(2000);
    fs.rmSync(path.join(root, 'src'), { recursive: true });
    expect(staleBuildInput(root)).toBeNull();
  });
});
