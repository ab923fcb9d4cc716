// What a `node --cpu-prof` profile says, as text: the share of CPU samples spent in each package
// (node_modules/<name>) or src/ file (self time), and the functions of src/ with the largest share
// including what they call (inclusive time, each sample counted once per function).
// `npx tsx scripts/bench/cpuProfileSummary.ts <file.cpuprofile> [top n]`
import fs from 'node:fs';
import { textTable } from './textTable.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
}

/** node_modules/<package> (scoped too), src/<file>, or what V8 calls it ((garbage collector), (program), node:…). */
function areaOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const [first, second] = url.slice(modules + '/node_modules/'.length).split('/');
    return first!.startsWith('@') ? `${first}/${second}` : first!;
  }
  const src = url.indexOf('/src/');
  if (src >= 0) return url.slice(src + 1);
  if (url.startsWith('node:')) return 'node (built-in)';
  return url.replace(/^file:\/\//, '');
}

export function summarize(profile: CpuProfile, top: number): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const total = profile.samples.length;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const sample of profile.samples) {
    const leaf = byId.get(sample)!;
    const area = areaOf(leaf.callFrame.url, leaf.callFrame.functionName);
    self.set(area, (self.get(area) ?? 0) + 1);
    const seen = new Set<string>();
    for (let at: number | undefined = sample; at !== undefined; at = parent.get(at)) {
      const { functionName, url, lineNumber } = byId.get(at)!.callFrame;
      const src = url.indexOf('/src/');
      if (src < 0 || url.includes('/node_modules/')) continue;
      const name = `${functionName || '(anonymous)'} ${url.slice(src + 1)}:${lineNumber + 1}`;
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + 1);
    }
  }
  const share = (n: number) => `${((100 * n) / total).toFixed(1)}%`;
  const rows = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, n]) => [share(n), name]);
  return [`${total} samples`, '', textTable(['self', 'package or file'], rows(self)), '', textTable(['inclusive', 'function of src/'], rows(inclusive))];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: cpuProfileSummary.ts <file.cpuprofile> [top n]');
for (const line of summarize(JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile, Number(topArg ?? 25))) process.stdout.write(`${line}\n`);
