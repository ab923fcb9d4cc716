// Sets of code points as sorted, non-overlapping [from, to] ranges: what one position of a pattern
// (a literal, a class like [a-z0-9], `\d`, `.`) may match. Patterns are compiled with the `u` flag
// (as ajv does), so a position is a code point, not a UTF-16 unit.
export type CharSet = readonly (readonly [number, number])[];

export const MAX_CODE_POINT = 0x10ffff;

export function charSet(ranges: Iterable<readonly [number, number]>): CharSet {
  const sorted = [...ranges].filter(([from, to]) => from <= to).sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = merged.at(-1);
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

export const single = (codePoint: number): CharSet => [[codePoint, codePoint]];
export const union = (...sets: CharSet[]): CharSet => charSet(sets.flat());

export function complement(set: CharSet): CharSet {
  const out: [number, number][] = [];
  let next = 0;
  for (const [from, to] of set) {
    if (from > next) out.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

export const intersect = (a: CharSet, b: CharSet): CharSet => complement(union(complement(a), complement(b)));
/** The code points in exactly one of the two sets. */
export const symmetricDifference = (a: CharSet, b: CharSet): CharSet => union(intersect(a, complement(b)), intersect(b, complement(a)));

/** Every code point of `inner` is in `outer`. */
export const includesAll = (outer: CharSet, inner: CharSet): boolean => inner.every(([from, to]) => outer.some(([f, t]) => f <= from && to <= t));

const has = (set: CharSet, codePoint: number): boolean => set.some(([from, to]) => from <= codePoint && codePoint <= to);

const range = (from: string, to: string): [number, number] => [from.codePointAt(0)!, to.codePointAt(0)!];
export const ANY: CharSet = [[0, MAX_CODE_POINT]];
export const DIGIT = charSet([range('0', '9')]);
export const WORD = charSet([range('A', 'Z'), range('a', 'z'), range('0', '9'), range('_', '_')]);
// ECMAScript's WhiteSpace and LineTerminator, what `\s` matches.
export const SPACE = charSet(
  [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff]
    .map((c): [number, number] => [c, c])
    .concat([[0x2000, 0x200a]]),
);
// `.` without the `s` flag: anything but a line terminator.
export const DOT = complement(charSet([0x0a, 0x0d, 0x2028, 0x2029].map((c): [number, number] => [c, c])));

// Samples read better, and show up plainly in a message, when made of printable ASCII.
const PREFERRED = [...'a0A_-. z9Z~'].map((c) => c.codePointAt(0)!);
const printable = (set: CharSet): number[] => {
  const out: number[] = [];
  for (let c = 0x20; c <= 0x7e; c++) if (has(set, c)) out.push(c);
  return out;
};

/**
 * One member of the set, different for different `choice`s: 0 a typical one (a letter or digit when
 * allowed), 1 the highest and 2 the lowest printable member, so samples also probe a class's edges.
 * A member of `favoured` comes first when there is one. undefined for the empty set.
 */
export function pick(set: CharSet, choice: number, favoured: CharSet = []): string | undefined {
  const preferred = intersect(set, favoured);
  if (preferred.length > 0) return pick(preferred, choice);
  if (set.length === 0) return undefined;
  const shown = printable(set);
  const codePoint =
    shown.length === 0
      ? choice % 2 === 0
        ? set[0]![0]
        : set.at(-1)![1]
      : [PREFERRED.find((c) => has(set, c)) ?? shown[0]!, shown.at(-1)!, shown[0]!][choice % 3]!;
  return String.fromCodePoint(codePoint);
}
