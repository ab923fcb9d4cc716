// `npm run bench -- <name> [options]`: runs one benchmark of bench/, with the options after its name;
// `npm run bench` (or `-- --list`) lists them, one line each. The benchmark runs in this process, with
// the command line it would have had on its own, so a benchmark file may also be run directly
// (`node --import tsx bench/<file>`).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchmarks } from './lib/benchmarks.js';

function list(write: (line: string) => void): void {
  write('usage: npm run bench -- <name> [options of that benchmark]');
  const width = Math.max(...benchmarks.map((b) => b.name.length));
  for (const b of benchmarks) write(`  ${b.name.padEnd(width)}  ${b.what}`);
}

const [name, ...options] = process.argv.slice(2);
if (name === undefined || name === '--list' || name === '--help') {
  list((line) => process.stdout.write(`${line}\n`));
} else {
  const benchmark = benchmarks.find((b) => b.name === name);
  if (!benchmark) {
    process.stderr.write(`no benchmark named "${name}"\n`);
    list((line) => process.stderr.write(`${line}\n`));
    process.exit(2);
  }
  const file = path.join(import.meta.dirname, benchmark.file);
  process.argv = [process.argv[0]!, file, ...options];
  await import(pathToFileURL(file).href);
}
