// Every value either spec accepts or sends has a size limit, so the server can refuse an oversized
// value before any check whose cost grows faster than linearly (uniqueItems, patterns, formats):
// every string has `maxLength` (or an `enum`/`const`, which bounds it), every array `maxItems`,
// and every object that accepts keys it does not name has `maxProperties`.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readYaml } from '../../conformance/specModel/index.js';

type Json = any;
const specs = path.resolve(import.meta.dirname, '../../specs');

// Schemas without a limit of their own, each bounded from outside: the first two are placeholders
// every concrete envelope replaces through `allOf` with a bounded schema (and closes with
// `unevaluatedProperties: false`); the items of an echoed array are bounded by the 100-character
// limit of the whole `rejectedValue`.
const placeholders = new Set([
  'openapi.yaml#/components/schemas/CommonResponse/properties/data',
  'openapi.yaml#/components/schemas/CursorPage/properties/content/items',
  'openapi.yaml#/components/schemas/FieldError/properties/rejectedValue/items',
]);

const subschemaMaps = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
const subschemaLists = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const subschemas = ['items', 'additionalProperties', 'unevaluatedProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
const assertions = ['type', 'enum', 'const', '$ref', 'allOf', 'anyOf', 'oneOf', 'not', 'properties', 'items'];

/** Problems of one schema and its subschemas; `closedByParent` when an enclosing schema closes it. */
function checkSchema(schema: Json, where: string, problems: string[], closedByParent = false): void {
  if (schema === null || typeof schema !== 'object') return;
  if (typeof schema.$ref === 'string') return; // checked where it is defined
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const bounded = schema.enum !== undefined || schema.const !== undefined;
  const untyped = types.length === 0 && !assertions.some((k) => k in schema);
  if (untyped && !placeholders.has(where)) {
    for (const limit of ['maxLength', 'maxItems', 'maxProperties']) if (schema[limit] === undefined) problems.push(`${where}: accepts any value but has no ${limit}`);
  }
  if (types.includes('string') && !bounded && schema.maxLength === undefined) problems.push(`${where}: string without maxLength`);
  if (types.includes('array') && schema.maxItems === undefined) problems.push(`${where}: array without maxItems`);
  const closed = closedByParent || schema.additionalProperties === false || schema.unevaluatedProperties === false;
  if ((types.includes('object') || (types.length === 0 && schema.properties)) && !closed && schema.maxProperties === undefined) {
    problems.push(`${where}: object that accepts other keys without maxProperties`);
  }
  for (const key of subschemaMaps) for (const [name, sub] of Object.entries<Json>(schema[key] ?? {})) checkSchema(sub, `${where}/${key}/${name}`, problems);
  for (const key of subschemaLists) {
    // unevaluatedProperties: false also closes the in-place branches of allOf/anyOf/oneOf.
    const closes = key !== 'prefixItems' && schema.unevaluatedProperties === false;
    for (const [i, sub] of (schema[key] ?? []).entries()) checkSchema(sub, `${where}/${key}/${i}`, problems, closes);
  }
  for (const key of subschemas) if (typeof schema[key] === 'object') checkSchema(schema[key], `${where}/${key}`, problems);
}

/** Every `schema` of parameters, headers, bodies and responses, skipping examples. */
function walkForSchemas(node: Json, where: string, problems: string[]): void {
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries<Json>(node)) {
    if (key === 'examples' || key === 'example') continue;
    if (key === 'schema') checkSchema(value, `${where}/${key}`, problems);
    else walkForSchemas(value, `${where}/${key}`, problems);
  }
}

function openapiProblems(): string[] {
  const doc = readYaml(path.join(specs, 'openapi.yaml'));
  const problems: string[] = [];
  for (const [name, schema] of Object.entries<Json>((doc.components as Json).schemas)) checkSchema(schema, `openapi.yaml#/components/schemas/${name}`, problems);
  walkForSchemas({ paths: doc.paths, parameters: (doc.components as Json).parameters, headers: (doc.components as Json).headers, responses: (doc.components as Json).responses }, 'openapi.yaml#', problems);
  return problems;
}

function asyncapiProblems(): string[] {
  const doc = readYaml(path.join(specs, 'asyncapi.yaml')) as Json;
  const problems: string[] = [];
  for (const [name, schema] of Object.entries<Json>(doc.components.schemas)) checkSchema(schema, `asyncapi.yaml#/components/schemas/${name}`, problems);
  for (const [name, message] of Object.entries<Json>(doc.components.messages)) {
    for (const part of ['payload', 'headers']) checkSchema(message[part], `asyncapi.yaml#/components/messages/${name}/${part}`, problems);
  }
  return problems;
}

describe('size limits in the specs', () => {
  it('openapi.yaml: every string has maxLength, every array maxItems, every open object maxProperties', () => {
    expect(openapiProblems()).toEqual([]);
  });

  it('asyncapi.yaml: every string has maxLength, every array maxItems, every open object maxProperties', () => {
    expect(asyncapiProblems()).toEqual([]);
  });

  it('the check finds a missing limit (it is not vacuous)', () => {
    const problems: string[] = [];
    checkSchema(
      { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } }, extra: { type: 'object' }, any: { description: 'x' } } },
      'example',
      problems,
    );
    expect(problems).toEqual([
      'example: object that accepts other keys without maxProperties',
      'example/properties/tags: array without maxItems',
      'example/properties/tags/items: string without maxLength',
      'example/properties/extra: object that accepts other keys without maxProperties',
      'example/properties/any: accepts any value but has no maxLength',
      'example/properties/any: accepts any value but has no maxItems',
      'example/properties/any: accepts any value but has no maxProperties',
    ]);
  });
});
