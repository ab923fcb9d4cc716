// A schema seen through its $refs and allOf parts as one set of constraints, so the rules compare
// what a validator enforces rather than how the YAML is factored: an envelope is CommonResponse plus
// an allOf part, and moving a field between the two must not read as a change.
import { arrayOrEmpty, isJsonObject, resolveRef, type Json } from '../specModel/index.js';

export const lowerBounds = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'] as const;
export const upperBounds = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'] as const;
export type BoundKey = (typeof lowerBounds)[number] | (typeof upperBounds)[number];

export interface FlatSchema {
  types: string[] | null; // null: any type
  enumValues: Json[] | null; // enum or const; null: no value list
  properties: Map<string, Json>; // raw property schemas, flattened lazily when walked
  required: Set<string>;
  closed: boolean; // additionalProperties or unevaluatedProperties is false
  items: Json | undefined;
  variants: Json[] | null; // oneOf/anyOf alternatives
  patterns: string[];
  format: string | undefined;
  multipleOf: number | undefined;
  bounds: Partial<Record<BoundKey, number>>;
  uniqueItems: boolean;
  default: Json | undefined;
  deprecated: boolean;
  examples: Json[]; // `examples` and `example`: real values, tried as witnesses when a pattern changes
  openEnum: boolean; // x-open-enum: values may be added without breaking clients (they accept unknown ones)
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

// allOf means "all of these hold": a value must have a type both parts allow.
function intersectTypes(a: string[] | null, b: string[] | null): string[] | null {
  if (!a) return b;
  if (!b) return a;
  const out = new Set<string>();
  for (const t of a) {
    if (b.includes(t)) out.add(t);
    else if ((t === 'integer' && b.includes('number')) || (t === 'number' && b.includes('integer'))) out.add('integer');
  }
  return [...out];
}

function intersectEnums(a: Json[] | null, b: Json[] | null): Json[] | null {
  if (!a) return b;
  if (!b) return a;
  const texts = new Set(b.map((y) => JSON.stringify(y)));
  return a.filter((x) => texts.has(JSON.stringify(x)));
}

const MAX_DEPTH = 64; // refs chains deeper than this are a cycle the spec linter should have caught

const strings = (values: Json[]): string[] => values.filter((value) => typeof value === 'string');

function collect(spec: Json, node: Json | undefined, flat: FlatSchema, depth: number): void {
  if (!isJsonObject(node)) return;
  if (depth > MAX_DEPTH) throw new Error('schema nesting too deep (a $ref cycle through allOf?)');
  // In 3.1 a $ref may have siblings (e.g. a default next to the ref): the target first, then the
  // siblings on top, as a validator applies both.
  if (typeof node.$ref === 'string') collect(spec, resolveRef(spec, { $ref: node.$ref }), flat, depth + 1);

  if (node.type !== undefined) flat.types = intersectTypes(flat.types, strings(Array.isArray(node.type) ? node.type : [node.type]));
  if (Array.isArray(node.enum)) flat.enumValues = intersectEnums(flat.enumValues, node.enum);
  if (node.const !== undefined) flat.enumValues = intersectEnums(flat.enumValues, [node.const]);
  for (const [name, schema] of Object.entries(isJsonObject(node.properties) ? node.properties : {})) {
    const known = flat.properties.get(name);
    flat.properties.set(name, known === undefined ? schema : { allOf: [known, schema] });
  }
  for (const name of strings(arrayOrEmpty(node.required))) flat.required.add(name);
  if (node.additionalProperties === false || node.unevaluatedProperties === false) flat.closed = true;
  if (node.items !== undefined) flat.items = flat.items === undefined ? node.items : { allOf: [flat.items, node.items] };
  const variants = node.oneOf ?? node.anyOf;
  if (Array.isArray(variants)) flat.variants = variants;
  if (typeof node.pattern === 'string' && !flat.patterns.includes(node.pattern)) flat.patterns.push(node.pattern);
  if (typeof node.format === 'string') flat.format = node.format;
  if (typeof node.multipleOf === 'number') flat.multipleOf = node.multipleOf;
  for (const key of lowerBounds) {
    const bound = node[key];
    if (typeof bound === 'number') flat.bounds[key] = Math.max(flat.bounds[key] ?? -Infinity, bound);
  }
  for (const key of upperBounds) {
    const bound = node[key];
    if (typeof bound === 'number') flat.bounds[key] = Math.min(flat.bounds[key] ?? Infinity, bound);
  }
  if (node.uniqueItems === true) flat.uniqueItems = true;
  if (node.default !== undefined) flat.default = node.default;
  if (node.deprecated === true) flat.deprecated = true;
  if (Array.isArray(node.examples)) flat.examples.push(...node.examples);
  if (node.example !== undefined) flat.examples.push(node.example);
  if (node['x-open-enum'] === true) flat.openEnum = true;
  for (const part of arrayOrEmpty(node.allOf)) collect(spec, part, flat, depth + 1);
  // if/then/else is left out on purpose: our specs use it for cross-field rules (isComplete is true
  // for COMPLETED); comparing two conditionals soundly needs a solver, not a diff.
}

export function flatten(spec: Json, schema: Json | undefined): FlatSchema {
  const flat: FlatSchema = {
    types: schema === false ? [] : null,
    enumValues: null,
    properties: new Map(),
    required: new Set(),
    closed: false,
    items: undefined,
    variants: null,
    patterns: [],
    format: undefined,
    multipleOf: undefined,
    bounds: {},
    uniqueItems: false,
    default: undefined,
    deprecated: false,
    examples: [],
    openEnum: false,
  };
  collect(spec, schema, flat, 0);
  return flat;
}

/**
 * What a oneOf/anyOf allows, seen as one schema: a value may take any alternative, so types, enum
 * values and properties are the union, required fields the intersection, bounds the loosest. Used
 * when only one side of a comparison is split into alternatives (an object refactored into a
 * discriminated union is not a change on the wire).
 */
export function unionOfVariants(spec: Json, flat: FlatSchema): FlatSchema {
  const alternatives = (flat.variants ?? []).map((variant) => flatten(spec, variant));
  if (alternatives.length === 0) return flat;
  const union: FlatSchema = { ...flat, variants: null, properties: new Map(flat.properties), required: new Set(flat.required), bounds: {} };
  union.types = alternatives.some((a) => a.types === null) ? null : [...new Set(alternatives.flatMap((a) => a.types!))];
  union.enumValues = alternatives.some((a) => a.enumValues === null)
    ? null
    : [...new Map(alternatives.flatMap((a) => a.enumValues!).map((v) => [JSON.stringify(v), v])).values()];
  const byName = new Map<string, Json[]>();
  for (const a of alternatives) for (const [name, schema] of a.properties) byName.set(name, [...(byName.get(name) ?? []), schema]);
  for (const [name, schemas] of byName) union.properties.set(name, schemas.length === 1 ? schemas[0]! : { anyOf: schemas });
  for (const name of alternatives[0]!.required) if (alternatives.every((a) => a.required.has(name))) union.required.add(name);
  union.closed = flat.closed || alternatives.every((a) => a.closed);
  // The schema's own constraints hold beside whichever alternative applies.
  for (const key of lowerBounds) {
    const values = alternatives.map((a) => a.bounds[key]);
    const loosest = values.every((v) => v !== undefined) ? Math.min(...values) : undefined;
    const bound = Math.max(flat.bounds[key] ?? -Infinity, loosest ?? -Infinity);
    if (bound !== -Infinity) union.bounds[key] = bound;
  }
  for (const key of upperBounds) {
    const values = alternatives.map((a) => a.bounds[key]);
    const loosest = values.every((v) => v !== undefined) ? Math.max(...values) : undefined;
    const bound = Math.min(flat.bounds[key] ?? Infinity, loosest ?? Infinity);
    if (bound !== Infinity) union.bounds[key] = bound;
  }
  const shared = alternatives.every((a) => same(a.patterns, alternatives[0]!.patterns)) ? alternatives[0]!.patterns : [];
  union.patterns = [...new Set([...flat.patterns, ...shared])];
  union.format = flat.format ?? (alternatives.every((a) => a.format === alternatives[0]!.format) ? alternatives[0]!.format : undefined);
  return union;
}

/** Alternatives that are each a single value (a oneOf of consts, say) are an enum written long-hand. */
export function isValueList(spec: Json, flat: FlatSchema): boolean {
  return (
    (flat.variants ?? []).length > 0 &&
    flat.variants!.every((variant) => {
      const alternative = flatten(spec, variant);
      return alternative.enumValues !== null && alternative.properties.size === 0 && !alternative.variants;
    })
  );
}
