// The JSON Schema the model must answer with, derived at load time from the spec's own
// DailyPlanResponse so that a contract change reaches the prompt without anybody editing it here.
//
// OpenAI strict mode accepts only a subset of JSON Schema, so the spec schema is adapted
// mechanically: `$ref`s are inlined (no `$defs` to resolve on the other side, and the schema stays
// readable path by path), every object lists all its properties in `required` and gets
// `additionalProperties: false`. Value constraints — `format`, `minimum`/`maximum`,
// `exclusiveMinimum`/`exclusiveMaximum`, `multipleOf`, `minLength`/`maxLength`, `pattern`,
// `minItems`/`maxItems`, `uniqueItems` — are dropped: strict mode has rejected them on some models
// and snapshots (and on OpenAI-compatible servers), and the generated validator checks the answer
// against the full spec schema anyway, feeding any violation back to the model. Annotations that
// only document (`examples`, `example`, `deprecated`, `title`, `default`, `readOnly`, `writeOnly`,
// `$comment`) are dropped too; `description` stays because it guides the model. Any other keyword
// (`allOf`, `oneOf`, `not`, `if`, …) cannot be translated faithfully and fails loudly here.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

export type JsonSchema = { [keyword: string]: unknown };

const specFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../specs/openapi.yaml');

const kept = new Set(['type', 'enum', 'const', 'description', 'anyOf', 'items', 'properties']);
const dropped = new Set([
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'examples',
  'example',
  'deprecated',
  'title',
  'default',
  'readOnly',
  'writeOnly',
  '$comment',
  // replaced: every object gets additionalProperties false and all its properties required
  'additionalProperties',
  'unevaluatedProperties',
  'required',
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function componentSchema(document: unknown, ref: string): unknown {
  const prefix = '#/components/schemas/';
  if (!ref.startsWith(prefix)) throw new Error(`dayPlanJsonSchema: unsupported $ref ${ref}`);
  const schemas = isRecord(document) && isRecord(document.components) ? document.components.schemas : undefined;
  const target = isRecord(schemas) ? schemas[ref.slice(prefix.length)] : undefined;
  if (!isRecord(target)) throw new Error(`dayPlanJsonSchema: ${ref} not found in the spec`);
  return target;
}

function adapt(document: unknown, schema: unknown, where: string, refsOnPath: readonly string[]): JsonSchema {
  if (!isRecord(schema)) throw new Error(`dayPlanJsonSchema: ${where} is not a schema object`);
  if (typeof schema.$ref === 'string') {
    if (refsOnPath.includes(schema.$ref)) throw new Error(`dayPlanJsonSchema: recursive ${schema.$ref} at ${where}`);
    return adapt(document, componentSchema(document, schema.$ref), where, [...refsOnPath, schema.$ref]);
  }
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (dropped.has(keyword)) continue;
    if (!kept.has(keyword)) throw new Error(`dayPlanJsonSchema: keyword "${keyword}" at ${where} has no strict-mode equivalent`);
    if (keyword === 'properties') {
      if (!isRecord(value)) throw new Error(`dayPlanJsonSchema: ${where}.properties must be an object`);
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, property]) => [name, adapt(document, property, `${where}.properties.${name}`, refsOnPath)]),
      );
    } else if (keyword === 'items') {
      out.items = adapt(document, value, `${where}.items`, refsOnPath);
    } else if (keyword === 'anyOf') {
      if (!Array.isArray(value)) throw new Error(`dayPlanJsonSchema: ${where}.anyOf must be an array`);
      out.anyOf = value.map((branch, i) => adapt(document, branch, `${where}.anyOf[${i}]`, refsOnPath));
    } else {
      out[keyword] = value;
    }
  }
  if (isRecord(out.properties)) {
    // Strict mode: every property required (optional ones would have to be nullable; the spec's
    // day plan has none) and nothing else allowed.
    out.required = Object.keys(out.properties);
    out.additionalProperties = false;
  }
  return out;
}

/** The strict-mode schema of one named component of an OpenAPI document (injectable for tests). */
export function buildStrictSchema(document: unknown, schemaName = 'DailyPlanResponse'): JsonSchema {
  return adapt(document, componentSchema(document, `#/components/schemas/${schemaName}`), schemaName, []);
}

/** The spec document as parsed from specs/openapi.yaml. */
export function loadOpenApiDocument(): unknown {
  return YAML.parse(fs.readFileSync(specFile, 'utf8'));
}

/** What the planner sends as `response_format.json_schema.schema`, built once at module load. */
export const dayPlanJsonSchema: JsonSchema = buildStrictSchema(loadOpenApiDocument());
