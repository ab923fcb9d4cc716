// Proves, for common shapes, that every string one pattern matches the other matches too, by
// comparing the two trees part by part. It is sound, not complete: `true` is a proof, `false` only
// means "not proven" (the caller then looks for a counterexample, or reports that it cannot tell).
// Each rule below is a plain fact about regular languages; together they cover a wider or narrower
// {m,n}, an alternative added or removed, a class gaining or losing members, and anchors added or removed.
import { includesAll, type CharSet } from './charSets.js';
import { alphabetOf, type RegexNode } from './regexShape.js';

const nullable = (node: RegexNode): boolean =>
  node.kind === 'repeat' ? node.min === 0 || nullable(node.node) : node.kind === 'group' ? node.options.some((o) => o.every(nullable)) : false;

/** Every string of `inner` is a string of `outer` (proven), for single parts. */
function nodeIncludes(outer: RegexNode, inner: RegexNode): boolean {
  // Positions: one class holds the other's members.
  if (outer.kind === 'chars' && inner.kind === 'chars') return includesAll(outer.set, inner.set);
  // Alternatives: each inner one lies within some outer one (so (a|b) ⊆ (a|b|c)).
  if (outer.kind === 'group' && inner.kind === 'group') return inner.options.every((i) => outer.options.some((o) => sequenceIncludes(o, i)));
  if (inner.kind === 'group') return inner.options.every((i) => sequenceIncludes([outer], i));
  if (outer.kind === 'group') return outer.options.some((o) => sequenceIncludes(o, [inner]));
  // Repeats: X{m,n} ⊇ Y{p,q} when X ⊇ Y and [p,q] lies within [m,n]; a single part is a repeat {1,1}.
  const [o, i] = [asRepeat(outer), asRepeat(inner)];
  return o.min <= i.min && i.max <= o.max && nodeIncludes(o.node, i.node);
}

const asRepeat = (node: RegexNode): Extract<RegexNode, { kind: 'repeat' }> => (node.kind === 'repeat' ? node : { kind: 'repeat', node, min: 1, max: 1 });

/** S when the part is an unbounded repeat S{m,} of one class S. */
const unboundedClass = (node: RegexNode | undefined): CharSet | undefined =>
  node?.kind === 'repeat' && node.max === Infinity && node.node.kind === 'chars' ? node.node.set : undefined;
const star = (set: CharSet): RegexNode => ({ kind: 'repeat', node: { kind: 'chars', set }, min: 0, max: Infinity });

/** Every string of the sequence `inner` is a string of the sequence `outer` (proven). */
export function sequenceIncludes(outer: RegexNode[], inner: RegexNode[]): boolean {
  const memo = new Map<string, boolean>();
  // `relaxed`: outer[i] is S{m,} that has already matched at least m characters, so what is left of
  // it is S* (S{m,} followed by S* is still S{m,}).
  const from = (i: number, j: number, relaxed: boolean): boolean => {
    const key = `${i}:${j}:${relaxed}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    // Every step moves on in outer or in inner, so this never comes back to a key it is computing.
    const result = step(i, j, relaxed);
    memo.set(key, result);
    return result;
  };
  const step = (i: number, j: number, relaxed: boolean): boolean => {
    const set = unboundedClass(outer[i]);
    const part = relaxed && set ? star(set) : outer[i];
    if (part === undefined) return j === inner.length;
    // An outer part that may match nothing may be skipped.
    if (nullable(part) && from(i + 1, j, false)) return true;
    const next = inner[j];
    if (next === undefined) return false;
    // Part by part: concatenation keeps inclusion. An S{m,} that took the inner part may go on as S*.
    if (nodeIncludes(part, next) && (from(i + 1, j + 1, false) || (set !== undefined && from(i, j + 1, true)))) return true;
    // S* swallows any inner part written only with members of S (so the "any string" that an
    // unanchored end stands for swallows everything).
    return set !== undefined && nullable(part) && includesAll(set, alphabetOf(next)) && from(i, j + 1, true);
  };
  return from(0, 0, false);
}

/** Every string `inner` matches, `outer` matches (proven); both are readPattern's alternatives. */
export function patternIncludes(outer: RegexNode[][], inner: RegexNode[][]): boolean {
  return inner.every((i) => outer.some((o) => sequenceIncludes(o, i)));
}
