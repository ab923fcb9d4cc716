// The `pattern` rules of one schema pair. A pattern added narrows what is accepted and one removed
// widens it; a pattern replaced by another may do either, both or neither, which patternRelation
// works out. The verdict then depends on the direction: losing strings breaks requests, gaining
// them breaks responses, and what cannot be decided either way is a warning.
import type { Direction, Severity } from './change.js';
import { consequenceOf, judge, show, type Finding } from './findings.js';
import { relatePatterns, type Evidence } from './patternRelation.js';
import type { FlatSchema } from './flatSchema.js';

import type { Json } from '../specModel/index.js';

const meetsPattern = (value: Json, pattern: string): boolean => typeof value !== 'string' || new RegExp(pattern, 'u').test(value);
const allMeet = (values: Json[] | null, pattern: string): boolean => values !== null && values.every((v) => meetsPattern(v, pattern));

// Patterns that every value of a format already matches, so adding one next to that (unchanged)
// format narrows nothing. Listed one by one, each checked by hand against the format's definition.
const patternsImpliedByFormat: Record<string, string[]> = {
  // RFC 3339 full-date, as ajv-formats' `full` mode checks it: four digits, a month 01-12, a day
  // that exists in that month (openapi.yaml LocalDate).
  date: ['^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$'],
};

// A long witness (a 128-character token, say) is cut for reading; its length says what it was.
function showSample(sample: string): string {
  const characters = [...sample];
  return characters.length <= 40 ? show(sample)! : `${show(characters.slice(0, 20).join('') + '…')!} (${characters.length} characters)`;
}

const severityOf = (evidence: Evidence): Severity => (evidence.kind === 'some' ? 'breaking' : evidence.kind === 'none' ? 'non-breaking' : 'warning');

function ruleOf(lost: Evidence, gained: Evidence): string {
  if (lost.kind === 'none' && gained.kind === 'none') return 'pattern-rewritten';
  if (lost.kind === 'none') return 'pattern-widened';
  if (gained.kind === 'none') return 'pattern-narrowed';
  return 'pattern-changed';
}

const unknownText: Record<Direction, string> = {
  request:
    'could not tell whether every value accepted before still matches (the parts do not compare, and no example, default, enum value or generated string differs): if one does not, requests valid before are rejected; check it by hand',
  response:
    'could not tell whether it now matches values the old pattern refused (the parts do not compare, and no example, default, enum value or generated string differs): if it does, clients relying on the old schema may get values they do not expect; check it by hand',
};

// The reason: the witnesses found either way, then what settles this direction (a proof, the
// consequence of a witness, or the doubt).
function describe(direction: Direction, lost: Evidence, gained: Evidence): string {
  const facts: string[] = [];
  if (lost.kind === 'some') facts.push(`${showSample(lost.witness)} matched before, not now`);
  if (gained.kind === 'some') facts.push(`${showSample(gained.witness)} matches now, not before`);
  const relevant = direction === 'request' ? lost : gained;
  if (relevant.kind === 'some') facts.push(consequenceOf(direction));
  if (relevant.kind === 'unknown') facts.push(unknownText[direction]);
  if (relevant.kind === 'none') {
    const proof = direction === 'request' ? 'every string the old pattern matched still matches' : 'every string it matches now, the old pattern matched too';
    facts.push(`${proof} (${relevant.why})`);
  }
  return facts.join('; ');
}

function judgeReplacement(old: FlatSchema, neu: FlatSchema, direction: Direction, find: Finding, removed: string[], added: string[]): void {
  const known = [old, neu].flatMap((flat) => [...(flat.enumValues ?? []), ...flat.examples, ...(flat.default === undefined ? [] : [flat.default])]);
  const { lost, gained } = relatePatterns(
    old,
    neu,
    removed,
    added,
    known.filter((v): v is string => typeof v === 'string'),
  );
  const change = `pattern ${removed.map(show).join(', ')} → ${added.map(show).join(', ')}`;
  find(severityOf(direction === 'request' ? lost : gained), `${direction}-${ruleOf(lost, gained)}`, `${change}: ${describe(direction, lost, gained)}`);
}

export function comparePatterns(old: FlatSchema, neu: FlatSchema, direction: Direction, find: Finding): void {
  const removed = old.patterns.filter((p) => !neu.patterns.includes(p));
  const added = neu.patterns.filter((p) => !old.patterns.includes(p));
  // As many patterns went as came: each was replaced by the one in its place.
  if (removed.length > 0 && removed.length === added.length) return judgeReplacement(old, neu, direction, find, removed, added);
  // A value list already within a new pattern is not narrowed by it, nor widened by the loss of one.
  const narrowing = added.filter((p) => !allMeet(old.enumValues, p));
  const restatesFormat = (p: string) => old.format !== undefined && old.format === neu.format && (patternsImpliedByFormat[old.format] ?? []).includes(p);
  const patternsAdded = narrowing.filter((p) => !restatesFormat(p));
  const patternsRestating = narrowing.filter(restatesFormat);
  const patternsRemoved = removed.filter((p) => !allMeet(neu.enumValues, p));
  if (patternsAdded.length > 0) judge(direction, true, find, 'pattern-added', `pattern ${patternsAdded.map(show).join(', ')} added`);
  if (patternsRestating.length > 0) {
    find(
      'non-breaking',
      `${direction}-pattern-added`,
      `pattern ${patternsRestating.map(show).join(', ')} added; it only restates format ${old.format}, which was already required`,
    );
  }
  if (patternsRemoved.length > 0) judge(direction, false, find, 'pattern-removed', `pattern ${patternsRemoved.map(show).join(', ')} removed`);
}
