// JSON Schemas of openapi.yaml made standalone for the peer implementations of the benchmark
// (Fastify + ajv, openapi-backend): every `#/components/...` reference inlined and the OpenAPI-only
// keywords (example, x-*) dropped, so a stock ajv in strict mode takes them as they are.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export type OpenApiDocument = { paths: Record<string, Record<string, Json>>; components: Record<string, Record<string, Json>> };

export function readOpenApi(root: string): OpenApiDocument {
  return parse(fs.readFileSync(path.join(root, 'specs/openapi.yaml'), 'utf8')) as OpenApiDocument;
}

const openApiOnly = new Set(['example', 'examples', 'description', 'externalDocs', 'xml', 'discriminator', 'deprecated']);

/** `value` with every local $ref replaced by what it points to (the spec's references have no cycles). */
export function inlined(doc: OpenApiDocument, value: Json): Json {
  if (Array.isArray(value)) return value.map((v) => inlined(doc, v));
  if (value === null || typeof value !== 'object') return value;
  const ref = value.$ref;
  if (typeof ref === 'string') {
    const [, , kind, name] = ref.split('/');
    const target = doc.components[kind!]?.[name!];
    if (target === undefined) throw new Error(`openapi.yaml: unresolved ${ref}`);
    return inlined(doc, target);
  }
  const out: Record<string, Json> = {};
  for (const [key, v] of Object.entries(value)) {
    if (openApiOnly.has(key) || key.startsWith('x-')) continue;
    // `properties` maps names to schemas: a property may well be called `description` or `example`.
    out[key] = key === 'properties' ? Object.fromEntries(Object.entries(v as Record<string, Json>).map(([p, s]) => [p, inlined(doc, s)])) : inlined(doc, v);
  }
  return out;
}

/** The query parameters of an operation as one object schema (what Fastify's `querystring` takes). */
export function querySchema(doc: OpenApiDocument, pathName: string, method: string): Record<string, Json> {
  const operation = inlined(doc, doc.paths[pathName]![method]!) as { parameters?: { name: string; in: string; required?: boolean; schema: Json }[] };
  const query = (operation.parameters ?? []).filter((p) => p.in === 'query');
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(query.map((p) => [p.name, p.schema])),
    required: query.filter((p) => p.required).map((p) => p.name),
  };
}

/** The application/json schema of one response of an operation. */
export function responseSchema(doc: OpenApiDocument, pathName: string, method: string, status: string): Json {
  const operation = doc.paths[pathName]![method] as { responses: Record<string, Json> };
  const response = inlined(doc, operation.responses[status]!) as { content: { 'application/json': { schema: Json } } };
  return response.content['application/json'].schema;
}
