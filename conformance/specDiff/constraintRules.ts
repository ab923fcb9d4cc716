// The value-level rules (type, enum, bounds, pattern, format, ...) of one schema pair. Each rule is
// written once for requests; responses are the mirror image, so `narrowed` below means "accepts fewer
// values than before", which breaks requests, and `widened` the opposite, which breaks responses.
import type { Direction } from './change.js';
import { judge, show, type Finding } from './findings.js';
import { lowerBounds, upperBounds, type FlatSchema } from './flatSchema.js';
import { comparePatterns } from './patternRules.js';

import type { Json } from '../specModel/index.js';

const showTypes = (types: string[] | null): string => (types ? types.join('|') || 'nothing' : 'any');
const covers = (types: string[] | null, t: string): boolean => !types || types.includes(t) || (t === 'integer' && types.includes('number'));

// Value lists are compared as sets of their JSON text: ErrorCode has dozens of values and is
// compared under every error status of every operation, so pairwise comparison would dominate.
const notIn = (list: Json[]): ((value: Json) => boolean) => {
  const texts = new Set(list.map((x) => show(x)));
  return (value) => !texts.has(show(value));
};

function compareTypes(old: FlatSchema, neu: FlatSchema, direction: Direction, find: Finding): void {
  const lost = old.types ? old.types.filter((t) => !covers(neu.types, t)) : neu.types ? ['any'] : [];
  const gained = neu.types ? neu.types.filter((t) => !covers(old.types, t)) : old.types ? ['any'] : [];
  const change = `type ${showTypes(old.types)} → ${showTypes(neu.types)}`;
  if (lost.length > 0) judge(direction, true, find, 'type-narrowed', `${change} (no longer ${lost.join('|')})`);
  if (gained.length > 0) judge(direction, false, find, 'type-widened', `${change} (now also ${gained.join('|')})`);
}

function compareEnums(old: FlatSchema, neu: FlatSchema, direction: Direction, find: Finding): void {
  if (!old.enumValues && !neu.enumValues) return;
  if (!old.enumValues) return judge(direction, true, find, 'enum-added', `now restricted to ${show(neu.enumValues)}`);
  if (!neu.enumValues) return judge(direction, false, find, 'enum-removed', `no longer restricted to ${show(old.enumValues)}`);
  const removed = old.enumValues.filter(notIn(neu.enumValues));
  const added = neu.enumValues.filter(notIn(old.enumValues));
  if (removed.length > 0) judge(direction, true, find, 'enum-value-removed', `enum value ${removed.map(show).join(', ')} removed`);
  if (added.length > 0 && direction === 'response' && neu.openEnum) {
    // The schema promises more values to come (x-open-enum), so clients already handle unknown ones.
    find('non-breaking', 'response-enum-value-added', `enum value ${added.map(show).join(', ')} added to an open enum (x-open-enum)`);
  } else if (added.length > 0) {
    judge(direction, false, find, 'enum-value-added', `enum value ${added.map(show).join(', ')} added`, 'breaks clients with exhaustive enums');
  }
}

// A schema restricted to a list of values accepts at most those: a bound or a pattern that every
// listed value meets changes nothing (e.g. a free code string with a pattern becoming a list of codes).
function meetsBound(value: Json, key: string, bound: number): boolean {
  const size =
    typeof value === 'string' ? [...value].length : Array.isArray(value) ? value.length : value && typeof value === 'object' ? Object.keys(value).length : null;
  switch (key) {
    case 'minLength':
    case 'minItems':
    case 'minProperties':
      return size === null || size >= bound;
    case 'maxLength':
    case 'maxItems':
    case 'maxProperties':
      return size === null || size <= bound;
    case 'minimum':
      return typeof value !== 'number' || value >= bound;
    case 'maximum':
      return typeof value !== 'number' || value <= bound;
    case 'exclusiveMinimum':
      return typeof value !== 'number' || value > bound;
    case 'exclusiveMaximum':
      return typeof value !== 'number' || value < bound;
    default:
      return false;
  }
}
const allMeet = (values: Json[] | null, meets: (value: Json) => boolean): boolean => values !== null && values.every(meets);

function compareBounds(old: FlatSchema, neu: FlatSchema, direction: Direction, find: Finding): void {
  for (const key of [...lowerBounds, ...upperBounds]) {
    const before = old.bounds[key];
    const after = neu.bounds[key];
    if (before === after) continue;
    const isLower = (lowerBounds as readonly string[]).includes(key);
    // A bound that appears narrows, one that disappears widens; otherwise the direction of the move.
    const narrowed = before === undefined ? true : after === undefined ? false : isLower ? after > before : after < before;
    // Narrowing rejects only old values beyond the new bound; widening admits only new values beyond the old one.
    if (narrowed && allMeet(old.enumValues, (v) => meetsBound(v, key, after!))) continue;
    if (!narrowed && allMeet(neu.enumValues, (v) => meetsBound(v, key, before!))) continue;
    const rule = `${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}-${narrowed ? 'tightened' : 'relaxed'}`;
    judge(direction, narrowed, find, rule, `${key} ${before ?? 'none'} → ${after ?? 'none'}`);
  }
}

function compareFormats(old: FlatSchema, neu: FlatSchema, direction: Direction, find: Finding): void {
  comparePatterns(old, neu, direction, find);
  if (old.format !== neu.format) {
    if (neu.format !== undefined) judge(direction, true, find, 'format-added', `format ${old.format ?? 'none'} → ${neu.format}`);
    if (old.format !== undefined) judge(direction, false, find, 'format-removed', `format ${old.format} → ${neu.format ?? 'none'}`);
  }
  if (old.multipleOf !== neu.multipleOf) {
    const narrowed = neu.multipleOf !== undefined && (old.multipleOf === undefined || old.multipleOf % neu.multipleOf !== 0);
    judge(direction, narrowed, find, 'multiple-of-changed', `multipleOf ${old.multipleOf ?? 'none'} → ${neu.multipleOf ?? 'none'}`);
  }
  if (old.uniqueItems !== neu.uniqueItems) {
    judge(direction, neu.uniqueItems, find, 'unique-items-changed', `uniqueItems ${old.uniqueItems} → ${neu.uniqueItems}`);
  }
}

function compareAnnotations(old: FlatSchema, neu: FlatSchema, direction: Direction, find: Finding): void {
  // A changed default does not change which values validate, but a client that omits the field
  // now gets different behaviour: worth a line, not a failure.
  if (direction === 'request' && show(old.default) !== show(neu.default)) {
    find(
      'non-breaking',
      'request-default-changed',
      `default ${show(old.default) ?? 'none'} → ${show(neu.default) ?? 'none'}; clients omitting it get the new default`,
    );
  }
  if (!old.deprecated && neu.deprecated) find('non-breaking', `${direction}-deprecated`, 'deprecated; plan its removal');
}

export function compareConstraints(old: FlatSchema, neu: FlatSchema, direction: Direction, find: Finding): void {
  compareTypes(old, neu, direction, find);
  compareEnums(old, neu, direction, find);
  compareBounds(old, neu, direction, find);
  compareFormats(old, neu, direction, find);
  compareAnnotations(old, neu, direction, find);
}
