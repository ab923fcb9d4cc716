// Writes generated/ as a whole: changed files are rewritten, identical ones left alone (so mtimes and
// watchers stay quiet), and files codegen no longer produces are removed (stale output is drift).
import fs from 'node:fs';
import path from 'node:path';

function listFiles(dir: string, base = dir): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full, base) : [path.relative(base, full)];
  });
}

export function writeGenerated(dir: string, files: Record<string, string>): { written: string[]; removed: string[]; unchanged: number } {
  const written: string[] = [];
  let unchanged = 0;
  for (const [relative, content] of Object.entries(files)) {
    const full = path.join(dir, relative);
    if (fs.existsSync(full) && fs.readFileSync(full, 'utf8') === content) {
      unchanged++;
      continue;
    }
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, content);
    written.push(relative);
  }
  const removed = listFiles(dir).filter((relative) => !(relative in files));
  for (const relative of removed) fs.rmSync(path.join(dir, relative));
  return { written, removed, unchanged };
}
