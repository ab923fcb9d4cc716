// Strings made to match a pattern (read by regexShape), to look for one the other side of a change
// refuses. A few per pattern, each taking a different path: the k-th alternative of every group, and
// per repeat its fewest, most (or many, when unbounded) and one-more-than-fewest copies, so that a
// changed range, a dropped alternative or a class losing its edge shows up in some sample. Each path
// is taken twice: once with typical characters, once favouring the characters only one side of the
// change allows (so [^a] → [^ab] is tried with "b").
import { pick, type CharSet } from './charSets.js';
import { anyString, type RegexNode } from './regexShape.js';

// Long enough for the ranges our patterns use ({43,128}), short enough to test quickly.
const MAX_SAMPLE_LENGTH = 300;
// How far past its minimum an unbounded repeat goes: beyond the small ranges patterns use.
const UNBOUNDED_EXTRA = 17;

function countFor(node: Extract<RegexNode, { kind: 'repeat' }>, k: number): number {
  // The "any string" of an unanchored end: one character is enough to show that anchors were dropped.
  if (node === anyString) return k % 2;
  const most = node.max !== Infinity && node.max <= 256 ? node.max : node.min + UNBOUNDED_EXTRA;
  return [node.min, most, Math.min(node.min + 1, most)][k % 3]!;
}

function generate(node: RegexNode, k: number, favoured: CharSet): string | undefined {
  if (node.kind === 'chars') return pick(node.set, k, favoured);
  if (node.kind === 'group') return generateSequence(node.options[k % node.options.length]!, k, favoured);
  const part = generate(node.node, k, favoured);
  const count = countFor(node, k);
  if (part === undefined) return count === 0 ? '' : undefined;
  return part.length * count > MAX_SAMPLE_LENGTH ? undefined : part.repeat(count);
}

function generateSequence(nodes: RegexNode[], k: number, favoured: CharSet): string | undefined {
  let out = '';
  for (const node of nodes) {
    const part = generate(node, k, favoured);
    if (part === undefined) return undefined; // an empty class: this path matches nothing
    out += part;
    if (out.length > MAX_SAMPLE_LENGTH) return undefined;
  }
  return out;
}

const widestGroup = (nodes: RegexNode[]): number =>
  Math.max(
    0,
    ...nodes.map((node) =>
      node.kind === 'group' ? Math.max(node.options.length, ...node.options.map(widestGroup)) : node.kind === 'repeat' ? widestGroup([node.node]) : 0,
    ),
  );

/** Distinct strings the pattern matches (checked with the regex engine by the caller). */
export function samplesOf(alternatives: RegexNode[][], favoured: CharSet): string[] {
  // Enough paths to reach every alternative of the widest group (within reason), and every choice of count and character.
  const paths = Math.min(8, Math.max(3, alternatives.length, ...alternatives.map(widestGroup)));
  const samples = new Set<string>();
  for (const favour of [[], favoured]) {
    for (let k = 0; k < paths; k++) {
      const sample = generateSequence(alternatives[k % alternatives.length]!, k, favour);
      if (sample !== undefined) samples.add(sample);
    }
  }
  return [...samples];
}
