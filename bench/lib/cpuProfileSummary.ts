// Reads a V8 CPU profile (`node --cpu-prof`) and sums its time by function (self time, and total time
// for the repository's own functions) and by where the code lives (a file of src/ or generated/, a
// package of node_modules, or node's own internals), so the request path's profile reads as a table
// instead of in a flame graph viewer. Samples of the first `skipMs` (start-up) are left out.
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface TimeShare {
  name: string;
  /** share of all sampled busy time, 0..1 */
  share: number;
}

export interface ProfileSummary {
  /** self time by function */
  byFunction: TimeShare[];
  /** self time by file or package */
  byPlace: TimeShare[];
  /** total time (self + callees) of the functions of src/ and generated/ */
  repositoryTotal: TimeShare[];
  /** idle share of the sampled time */
  idle: number;
}

/** src/x.ts, generated/x.ts, a package name, or "(node)" / "(program)" / "(garbage collector)". */
function placeOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return '(node)';
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1]!;
  const inRepo = /\/((?:src|generated|bench|tools)\/.*)$/.exec(url.split('?')[0]!);
  return inRepo ? inRepo[1]! : url;
}

export function summariseCpuProfile(file: string, opts: { top?: number; skipMs?: number } = {}): ProfileSummary {
  const top = opts.top ?? 25;
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const nameOf = (node: ProfileNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    return `${functionName || '(anonymous)'} ${placeOf(url, functionName)}${url ? `:${lineNumber + 1}` : ''}`;
  };
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  const repositoryTotal = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, delta: number) => map.set(key, (map.get(key) ?? 0) + delta);
  let elapsed = 0;
  let total = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    elapsed += delta / 1000;
    if (elapsed < (opts.skipMs ?? 0)) return;
    const node = nodes.get(id)!;
    const { functionName, url } = node.callFrame;
    if (functionName === '(idle)') {
      idle += delta;
      return;
    }
    total += delta;
    add(byFunction, nameOf(node), delta);
    add(byPlace, placeOf(url, functionName), delta);
    // Each of our functions once per sample, however deep it recurses.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
      const frame = nodes.get(at)!;
      if (!/\/(src|generated)\//.test(frame.callFrame.url)) continue;
      const name = nameOf(frame);
      if (!seen.has(name)) add(repositoryTotal, name, delta);
      seen.add(name);
    }
  });
  const ranked = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, time]) => ({ name, share: time / total }));
  return { byFunction: ranked(byFunction), byPlace: ranked(byPlace), repositoryTotal: ranked(repositoryTotal), idle: idle / (idle + total) };
}
