// fast-check arbitraries derived from JSON Schemas of the spec: values that satisfy the schema
// (types, required and optional properties, bounds, formats, patterns, enums, const, nullability).
// Composition is limited to what the spec uses for request schemas ($ref, allOf of objects).
import fc from 'fast-check';
import { arrayOrEmpty, numberOrUndefined, objectOrEmpty, stringOrUndefined, type Json, type JsonObject } from '../specModel/index.js';

type Schema = JsonObject;

export interface ArbitraryOptions {
  /** resolves a `#/components/schemas/...` ref */
  resolve(ref: string): Schema;
  /** values for integer fields that name resources, e.g. known ids of the caller */
  idPool?: number[];
  /**
   * Whether a text matches a schema's pattern, undefined when that cannot be decided in time: the
   * spec index's sandbox, as a spec's pattern may backtrack catastrophically.
   */
  matches: (pattern: string, text: string) => boolean | undefined;
}

const MAX_STRING = 60;
const MAX_ARRAY = 5;

// fast-check writes out every repetition a pattern asks for: `x{100000000}` would be a string of a
// hundred million characters per sample. A pattern with a larger count gets plain strings instead.
const MAX_PATTERN_REPETITIONS = 1000;
const generatable = (pattern: string) => [...pattern.matchAll(/\{(\d+)/g)].every(([, count]) => Number(count) <= MAX_PATTERN_REPETITIONS);

function stringArbitrary(schema: Schema, options: ArbitraryOptions): fc.Arbitrary<string> {
  const minLength = numberOrUndefined(schema.minLength) ?? 0;
  const declaredMaxLength = numberOrUndefined(schema.maxLength);
  const maxLength = Math.min(declaredMaxLength ?? MAX_STRING, Math.max(minLength, MAX_STRING));
  const pattern = stringOrUndefined(schema.pattern);
  let arb: fc.Arbitrary<string>;
  switch (schema.format) {
    case 'date':
      arb = fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
      break;
    case 'date-time':
      arb = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
      break;
    case 'email':
      arb = fc
        .tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,10}$/), fc.constantFrom('example.com', 'example.org', 'test.example'))
        .map(([user, domain]) => `${user}@${domain}`);
      break;
    case 'uri':
      arb = fc.webUrl();
      break;
    default:
      arb =
        pattern && generatable(pattern)
          ? fc.stringMatching(new RegExp(pattern)).map((s) => s.slice(0, maxLength))
          : fc.string({ minLength, maxLength, unit: 'grapheme' });
  }
  // A string whose match cannot be decided in time is kept; the server's answer to it is judged as usual.
  return arb.filter((s) => s.length >= minLength && s.length <= (declaredMaxLength ?? Infinity) && (!pattern || options.matches(pattern, s) !== false));
}

function integerArbitrary(schema: Schema, options: ArbitraryOptions): fc.Arbitrary<number> {
  const exclusiveMinimum = numberOrUndefined(schema.exclusiveMinimum);
  const exclusiveMaximum = numberOrUndefined(schema.exclusiveMaximum);
  const min = numberOrUndefined(schema.minimum) ?? (exclusiveMinimum !== undefined ? exclusiveMinimum + 1 : -1_000_000);
  const max = Math.min(numberOrUndefined(schema.maximum) ?? (exclusiveMaximum !== undefined ? exclusiveMaximum - 1 : 1_000_000), Number.MAX_SAFE_INTEGER);
  const range = fc.oneof(fc.integer({ min, max: Math.min(max, min + 1000) }), fc.integer({ min, max }), fc.constantFrom(min, max));
  const pool = (options.idPool ?? []).filter((id) => id >= min && id <= max);
  return pool.length > 0 && schema.format === 'int64' ? fc.oneof(fc.constantFrom(...pool), range) : range;
}

export function schemaArbitrary(input: Json | undefined, options: ArbitraryOptions, depth = 0): fc.Arbitrary<unknown> {
  let schema = objectOrEmpty(input);
  while (typeof schema.$ref === 'string')
    schema = { ...options.resolve(schema.$ref), ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$ref')) };
  if (schema.allOf) {
    const properties: JsonObject = {};
    const required: Json[] = [];
    for (const part of [schema, ...arrayOrEmpty(schema.allOf)]) {
      let resolved = objectOrEmpty(part);
      while (typeof resolved.$ref === 'string') resolved = options.resolve(resolved.$ref);
      Object.assign(properties, objectOrEmpty(resolved.properties));
      required.push(...arrayOrEmpty(resolved.required));
    }
    return schemaArbitrary({ type: 'object', properties, required }, options, depth);
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const types = (
    Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : schema.properties ? ['object'] : ['string', 'integer', 'boolean', 'null']
  ).filter((type) => typeof type === 'string');
  const arbitraries = types.map((type): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return integerArbitrary(schema, options);
      case 'number':
        return fc.double({
          min: numberOrUndefined(schema.minimum) ?? -1e6,
          max: numberOrUndefined(schema.maximum) ?? 1e6,
          noNaN: true,
          noDefaultInfinity: true,
        });
      case 'string':
        return stringArbitrary(schema, options);
      case 'array': {
        const item = schema.items ? schemaArbitrary(schema.items, options, depth + 1) : fc.constant(null);
        const minLength = numberOrUndefined(schema.minItems) ?? 0;
        const maxLength = Math.min(numberOrUndefined(schema.maxItems) ?? MAX_ARRAY, Math.max(minLength, MAX_ARRAY));
        return schema.uniqueItems
          ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
          : fc.array(item, { minLength, maxLength });
      }
      case 'object': {
        const properties = Object.entries(objectOrEmpty(schema.properties));
        const required = new Set(arrayOrEmpty(schema.required));
        const record: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [name, property] of properties) record[name] = schemaArbitrary(property, options, depth + 1);
        return fc.record(record, { requiredKeys: properties.map(([name]) => name).filter((name) => required.has(name)) });
      }
      default:
        return fc.constant(null);
    }
  });
  return arbitraries.length === 1 ? arbitraries[0]! : fc.oneof(...arbitraries);
}
