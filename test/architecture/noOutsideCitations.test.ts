// The repository speaks for itself: no file may send its reader to something the reader does not
// have — a folder beside the checkout, an issue or a finding by number, or design documents that
// live outside the repository. Where a reference helps, a file says it in its own words and points
// to what the repository holds (a README section, a file, a test, a commit hash).
// Every file git knows of (tracked, or new and not ignored) is read, except the lockfile and binary
// files. The patterns below are written so that this file does not match them itself.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** What a reader of the repository does not have, and the words that cite it. */
const outsideCitations: ReadonlyArray<{ what: string; pattern: RegExp }> = [
  { what: 'a folder outside the repository', pattern: /\.\.\/shared\b/ },
  { what: 'an issue', pattern: /\bissues?\s+(?:#\s*)?\d+|\bissue\s+#|\bissue's\b/i },
  { what: 'a finding by number', pattern: /\bfindings?\s+#?\d+/i },
  { what: 'a design document outside the repository', pattern: /\bdesign\s+cards?\b|\bSCALE(?:OUT)\b|\bCONTRACT\.md\b/i },
  { what: 'a numbered section of an outside ARCHITECTURE.md', pattern: /ARCHITECTURE\.md`?\s*§/ },
];

const skipped = new Set(['package-lock.json']);

/** Every file git knows of in this checkout (tracked, or new and not ignored) that still exists. */
function repositoryFiles(): string[] {
  const listing = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  const files = [...new Set(listing.split('\0').filter(Boolean))];
  return files.filter((file) => !skipped.has(path.basename(file)) && fs.existsSync(path.join(root, file)));
}

const isBinary = (bytes: Buffer) => bytes.subarray(0, 8_000).includes(0);

/** Each line of `text` that cites something outside the repository, as `file:line: what: the line`. */
function citationsIn(file: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    const cited = outsideCitations.filter(({ pattern }) => pattern.test(line)).map(({ what }) => what);
    if (cited.length > 0) found.push(`${file}:${index + 1}: ${cited.join(', ')}: ${line.trim()}`);
  });
  return found;
}

describe('no file cites what a reader of the repository does not have', () => {
  it('finds each kind of citation, and leaves ordinary words alone', () => {
    // Assembled from pieces, so that this file does not cite anything itself.
    const citing = [
      `see ${'..'}/${'sha' + 'red'}/notes.md`,
      `the code before ${'issue'} 16's changes`,
      `${'Issue'} #12: sessions`,
      `within the ${'issue'}'s 0.5 s`,
      `${'Finding'} 5 of the review`,
      `as the ${'design'} card pins it`,
      `(${'SCALE'}OUT.md §4)`,
      `${'CONTRACT'}.md says so`,
      `(${'ARCHITECTURE'}.md §3)`,
    ];
    for (const line of citing) expect(citationsIn('sample', line), line).toHaveLength(1);
    const ordinary = [
      'Issues a token pair',
      'a reissue within 10 seconds',
      'One finding of a comparison',
      'the original design',
      "the issuer's URL",
      'see ARCHITECTURE.md',
    ];
    for (const line of ordinary) expect(citationsIn('sample', line), line).toEqual([]);
  });

  it('in any file of the repository', () => {
    const files = repositoryFiles();
    expect(files).toContain('README.md');
    const found: string[] = [];
    for (const file of files) {
      const bytes = fs.readFileSync(path.join(root, file));
      if (!isBinary(bytes)) found.push(...citationsIn(file, bytes.toString('utf8')));
    }
    expect(found.join('\n')).toBe('');
  });
});
