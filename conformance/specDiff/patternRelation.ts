// How a changed `pattern` moves the set of accepted strings, decided without a general
// regex-inclusion solver. Each direction gets its own verdict:
//   lost   = strings the old side accepted and the new one refuses (these break requests);
//   gained = strings the new side accepts and the old one refused (these break responses).
// A verdict is "some" only with a witness string, checked with the regex engine itself; "none" only
// with a proof: a value list (enum) checked value by value, or the part-by-part comparison of
// regexInclusion. Anything else is "unknown", which the caller reports as a warning.
import { patternIncludes } from './regexInclusion.js';
import { symmetricDifference, union } from './charSets.js';
import { alphabetOf, readPattern } from './regexShape.js';
import { samplesOf } from './regexSamples.js';

import type { Json } from '../specModel/index.js';

export type Evidence = { kind: 'none'; why: string } | { kind: 'some'; witness: string } | { kind: 'unknown' };

/** One side of a change: its patterns (all must match) and its value list, if any. */
export interface PatternSide {
  patterns: string[];
  enumValues: Json[] | null;
}

const compile = (pattern: string): RegExp | null => {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return null;
  }
};

function acceptance(side: PatternSide): ((value: string) => boolean) | null {
  const regexes = side.patterns.map(compile);
  if (regexes.some((r) => r === null)) return null;
  return (value) => regexes.every((r) => r!.test(value));
}

const strings = (values: Json[]): string[] => values.filter((v): v is string => typeof v === 'string');

/**
 * What `from` accepts and `to` refuses. `fromOwn[i]` became `toOwn[i]` (the patterns both sides
 * share need no proof). The witness shown is the schema's own value if one serves, else the
 * shortest generated string: the one easiest to read.
 */
function refused(from: PatternSide, to: PatternSide, fromOwn: string[], toOwn: string[], known: string[], generated: string[]): Evidence {
  const [accepts, acceptsNow] = [acceptance(from), acceptance(to)];
  if (!accepts || !acceptsNow) return { kind: 'unknown' };
  // A value list is finite: trying each value decides exactly.
  if (from.enumValues) {
    const witness = strings(from.enumValues).find((v) => accepts(v) && !acceptsNow(v));
    return witness === undefined ? { kind: 'none', why: 'every listed value still matches' } : { kind: 'some', witness };
  }
  const witness = [known, generated]
    .map((candidates) => candidates.filter((v) => accepts(v) && !acceptsNow(v)).sort((a, b) => a.length - b.length)[0])
    .find((w) => w !== undefined);
  if (witness !== undefined) return { kind: 'some', witness };
  // The intersection of the new patterns holds that of the old ones when each replacement holds
  // the pattern it replaced.
  const proven = fromOwn.every((before, i) => {
    const [fromShape, toShape] = [readPattern(before), readPattern(toOwn[i]!)];
    return fromShape !== null && toShape !== null && patternIncludes(toShape, fromShape);
  });
  return proven ? { kind: 'none', why: 'compared part by part' } : { kind: 'unknown' };
}

/**
 * Compares two sides whose pattern lists differ by `removed` → `added` (same length, paired in
 * order). `known` are the schemas' own strings (examples, defaults, enum values), tried as witnesses
 * before the strings generated to match each changed pattern.
 */
export function relatePatterns(old: PatternSide, neu: PatternSide, removed: string[], added: string[], known: string[]): { lost: Evidence; gained: Evidence } {
  const shapes = [...removed, ...added].map(readPattern).filter((shape) => shape !== null);
  const alphabet = (patterns: string[]) => union(...patterns.map(readPattern).flatMap((shape) => (shape ?? []).flat().map(alphabetOf)));
  const favoured = symmetricDifference(alphabet(removed), alphabet(added));
  const generated = shapes.flatMap((shape) => samplesOf(shape, favoured));
  return { lost: refused(old, neu, removed, added, known, generated), gained: refused(neu, old, added, removed, known, generated) };
}
