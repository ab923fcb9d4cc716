// A comment or page that sends its reader to a section of a page (the page's name, then the
// section's heading in double quotes) must name a section that page has: pages are split and headings renamed, and a citation
// that no longer resolves sends the reader nowhere. Every file git knows of is read (as
// noOutsideCitations.test.ts does), except generated/ output and the lockfile.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** The README or a page ending .md, an optional comma, then the section's heading in double quotes. */
const citation = /\b((?:README|[\w./-]+\.md))`?,? "([^"\n]{3,80})"/g;

interface Citation {
  page: string;
  section: string;
}

export function citationsIn(text: string): Citation[] {
  return [...text.matchAll(citation)].map((m) => ({ page: m[1] === 'README' ? 'README.md' : m[1]!, section: m[2]! }));
}

const headingsOf = (markdown: string) =>
  new Set(
    markdown
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => line.replace(/^#+ /, '').trim()),
  );

function repositoryFiles(): string[] {
  const listing = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  return [...new Set(listing.split('\0').filter(Boolean))].filter(
    (file) => !file.startsWith('generated/') && file !== 'package-lock.json' && fs.existsSync(path.join(root, file)),
  );
}

/** The page a citation names, found from the repository root or beside the citing file. */
function pagePath(citingFile: string, page: string): string | null {
  for (const candidate of [path.join(root, page), path.join(root, path.dirname(citingFile), page), path.join(root, 'docs', page)])
    if (fs.existsSync(candidate)) return candidate;
  return null;
}

describe('a citation of a page section names a section the page has', () => {
  it('reads the page and the section of each form', () => {
    // Assembled from pieces, so that this file cites nothing itself.
    const md = '.md';
    const sample = `// (READ${'ME'}, "Generation jobs") and docs/operations${md}, "Operating it"; scale-out${md} "Plan logs"`;
    expect(citationsIn(sample)).toEqual([
      { page: 'README.md', section: 'Generation jobs' },
      { page: 'docs/operations.md', section: 'Operating it' },
      { page: 'scale-out.md', section: 'Plan logs' },
    ]);
  });

  it('in every file of the repository', () => {
    const unresolved: string[] = [];
    for (const file of repositoryFiles()) {
      const bytes = fs.readFileSync(path.join(root, file));
      if (bytes.subarray(0, 8_000).includes(0)) continue;
      for (const { page, section } of citationsIn(bytes.toString('utf8'))) {
        const found = pagePath(file, page);
        if (!found) unresolved.push(`${file}: ${page} does not exist ("${section}")`);
        else if (!headingsOf(fs.readFileSync(found, 'utf8')).has(section)) unresolved.push(`${file}: ${page} has no section "${section}"`);
      }
    }
    expect(unresolved).toEqual([]);
  });
});
