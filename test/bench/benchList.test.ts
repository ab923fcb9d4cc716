// `npm run bench -- <name>`: the list of benchmarks names every benchmark file of bench/ once, and
// the entry prints it (one line each) or refuses a name that is not on it.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { benchmarks } from '../../bench/lib/benchmarks.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const benchDir = path.join(root, 'bench');
const entry = ['--import', 'tsx', path.join(benchDir, 'run.ts')];

describe('the benchmarks of npm run bench', () => {
  it('lists every benchmark file of bench/ once, under a name of its own', () => {
    const files = fs.readdirSync(benchDir).filter((name) => name.endsWith('.ts') && name !== 'run.ts');
    expect(benchmarks.map((b) => b.file).sort()).toEqual(files.sort());
    expect(new Set(benchmarks.map((b) => b.name)).size).toBe(benchmarks.length);
  });

  it('prints one line per benchmark for --list and without a name', async () => {
    for (const args of [['--list'], []]) {
      const { stdout } = await run(process.execPath, [...entry, ...args], { cwd: root });
      const lines = stdout.trim().split('\n');
      expect(lines).toHaveLength(benchmarks.length + 1);
      for (const b of benchmarks) expect(lines.some((line) => line.trim().startsWith(`${b.name} `))).toBe(true);
    }
  });

  it('refuses a name that is not a benchmark, and lists them', async () => {
    await expect(run(process.execPath, [...entry, 'serializer'], { cwd: root })).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('no benchmark named "serializer"') as unknown,
    });
  });
});
