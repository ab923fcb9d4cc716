// Walks two versions of one schema side by side (object properties by name, array items, oneOf/anyOf
// alternatives by position) and applies the value rules at every level. Field paths are written as a
// client sees the JSON: `data.content[].title`.
import type { Direction, Report } from './change.js';
import { compareConstraints } from './constraintRules.js';
import { flatten, isValueList, unionOfVariants, type FlatSchema } from './flatSchema.js';

import type { Json, JsonObject } from '../specModel/index.js';

export interface SchemaContext {
  oldSpec: JsonObject; // the documents the two schemas' $refs resolve in
  newSpec: JsonObject;
  direction: Direction;
  where: string; // e.g. "getTripPlan GET /api/v1/trips/{tripPlanId} response 200 body"
  report: Report;
}

// Deep enough for every real payload; a recursive schema stops here instead of looping.
const MAX_DEPTH = 32;

const join = (field: string, name: string): string => (field ? `${field}.${name}` : name);

export function diffSchema(ctx: SchemaContext, oldSchema: Json | undefined, newSchema: Json | undefined): void {
  walk(ctx, oldSchema, newSchema, '', 0);
}

function walk(ctx: SchemaContext, oldSchema: Json | undefined, newSchema: Json | undefined, field: string, depth: number): void {
  if (depth > MAX_DEPTH) return;
  let old = flatten(ctx.oldSpec, oldSchema);
  let neu = flatten(ctx.newSpec, newSchema);
  // Positions mean nothing in a list of values: compare value sets (a new code inserted in the middle
  // of a oneOf of consts is one added value, not a change at every later position).
  const valueLists = Boolean(old.variants && neu.variants) && isValueList(ctx.oldSpec, old) && isValueList(ctx.newSpec, neu);
  if (old.variants && (!neu.variants || valueLists)) old = unionOfVariants(ctx.oldSpec, old);
  if (neu.variants && (!old.variants || valueLists)) neu = unionOfVariants(ctx.newSpec, neu);
  const location = field ? `${ctx.where}: ${field}` : ctx.where;
  compareConstraints(old, neu, ctx.direction, (severity, rule, reason) => ctx.report(severity, rule, location, reason));
  compareProperties(ctx, old, neu, field, location, depth);
  if (old.items !== undefined || neu.items !== undefined) walk(ctx, old.items ?? {}, neu.items ?? {}, `${field}[]`, depth + 1);
  compareVariants(ctx, old, neu, field, location, depth);
}

function compareProperties(ctx: SchemaContext, old: FlatSchema, neu: FlatSchema, field: string, location: string, depth: number): void {
  const { direction, report } = ctx;
  if (direction === 'request' && !old.closed && neu.closed) {
    report('breaking', 'request-schema-closed', location, 'additional properties are now rejected; clients sending extra fields get 400');
  }
  if (direction === 'response' && old.closed && !neu.closed) {
    report('non-breaking', 'response-schema-opened', location, 'may now carry undocumented fields');
  }
  const names = new Set([...old.properties.keys(), ...neu.properties.keys(), ...old.required, ...neu.required]);
  for (const name of names) {
    const at = `${ctx.where}: ${join(field, name)}`;
    const inOld = old.properties.has(name) || old.required.has(name);
    const inNew = neu.properties.has(name) || neu.required.has(name);
    const wasRequired = old.required.has(name);
    const isRequired = neu.required.has(name);
    if (inOld && !inNew) {
      if (direction === 'response') {
        report('breaking', 'response-property-removed', at, `removed (was ${wasRequired ? 'required' : 'optional'}); clients reading it break`);
      } else if (neu.closed) {
        report('breaking', 'request-property-removed', at, 'removed from a closed schema; clients still sending it get 400');
      } else {
        report('non-breaking', 'request-property-removed', at, 'removed; the server ignores it when sent');
      }
      continue;
    }
    if (!inOld && inNew) {
      if (direction === 'request') {
        if (isRequired) report('breaking', 'request-property-added-required', at, 'new required field; requests without it are rejected');
        else report('non-breaking', 'request-property-added', at, 'new optional field');
      } else if (old.closed) {
        // Lenient clients ignore an unknown field, but the old spec promised there would be none:
        // clients that validate responses against it, or whose generated types are exact, refuse it.
        report(
          'warning',
          'response-property-added-to-closed-schema',
          at,
          'new field in a closed schema (additionalProperties: false or unevaluatedProperties: false); strict clients that validate responses against the old schema, or were generated with exact types, refuse it',
        );
      } else {
        report('non-breaking', 'response-property-added', at, 'new field');
      }
      continue;
    }
    if (direction === 'request' && !wasRequired && isRequired) {
      report('breaking', 'request-property-became-required', at, 'now required; requests without it are rejected');
    }
    if (direction === 'request' && wasRequired && !isRequired) report('non-breaking', 'request-property-became-optional', at, 'now optional');
    if (direction === 'response' && wasRequired && !isRequired) {
      report('breaking', 'response-property-became-optional', at, 'no longer required; clients relying on it being present break');
    }
    if (direction === 'response' && !wasRequired && isRequired) report('non-breaking', 'response-property-became-required', at, 'now always present');
    walk(ctx, old.properties.get(name) ?? {}, neu.properties.get(name) ?? {}, join(field, name), depth + 1);
  }
}

// Alternatives have no names, so they are paired by position; only their count is judged here.
function compareVariants(ctx: SchemaContext, old: FlatSchema, neu: FlatSchema, field: string, location: string, depth: number): void {
  if (!old.variants || !neu.variants) return;
  const { direction, report } = ctx;
  if (neu.variants.length < old.variants.length) {
    const severity = direction === 'request' ? 'breaking' : 'non-breaking';
    report(severity, `${direction}-variant-removed`, location, `oneOf/anyOf alternatives ${old.variants.length} → ${neu.variants.length}`);
  }
  if (neu.variants.length > old.variants.length) {
    const severity = direction === 'response' ? 'breaking' : 'non-breaking';
    report(severity, `${direction}-variant-added`, location, `oneOf/anyOf alternatives ${old.variants.length} → ${neu.variants.length}`);
  }
  const paired = Math.min(old.variants.length, neu.variants.length);
  for (let i = 0; i < paired; i++) walk(ctx, old.variants[i], neu.variants[i], `${field}<${i}>`, depth + 1);
}
