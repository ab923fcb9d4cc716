// generated/serializers.ts: a JSON writer per documented JSON response, compiled from its schema.
// JSON.stringify walks an object's own keys and looks at every value's type; a writer that already
// knows the keys and their types writes a trip page in under half the time (3.1 µs instead of
// 6.5 µs for 20 plans, `npm run bench:serializer`): the largest framework cost the list request had
// left next to Fastify, whose fast-json-stringify does the same from the same schema. What a writer handles: closed objects
// (`additionalProperties: false`, the spec's rule for every response), arrays, strings, numbers,
// booleans, `[type, 'null']` and $refs to named schemas (one function each); any other schema
// (oneOf, open objects, no type) is written by JSON.stringify. The output is always valid JSON and
// parses to the value restricted to the documented properties, whatever the value holds: a value
// of another type than documented is written by JSON.stringify, a missing required property as null.
import { GENERATED_HEADER, propertyKey } from './naming.js';
import { componentName, objectOrEmpty, type Json, type JsonObject, type OperationFact } from '../conformance/specModel/index.js';

interface Writer {
  /** named schemas reached so far, written as functions */
  named: Map<string, string | null>;
  schemas: JsonObject;
  /** the next free local variable number within the function being written */
  next: number;
}

/** A JavaScript string literal in single quotes (the JSON text inside keeps its double quotes readable). */
const literal = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

const functionName = (schemaName: string) => `w_${schemaName.replace(/[^A-Za-z0-9_$]/g, '_')}`;

const typesOf = (schema: JsonObject): string[] => (Array.isArray(schema.type) ? schema.type.map(String) : typeof schema.type === 'string' ? [schema.type] : []);

/** Schemas whose shape a writer cannot know: JSON.stringify writes them. */
function isOpaque(schema: JsonObject): boolean {
  return ['allOf', 'oneOf', 'anyOf', 'not', 'if', 'patternProperties', 'unevaluatedProperties', 'prefixItems'].some((k) => k in schema);
}

/** Statements that append the JSON of `value` (a local variable name) to `o`. */
function writeValue(w: Writer, schema: Json | undefined, value: string, indent: string): string[] {
  const s = objectOrEmpty(schema);
  const ref = componentName(s.$ref, 'schemas');
  if (ref !== null) {
    reachNamed(w, ref);
    return [`${indent}o += ${functionName(ref)}(${value});`];
  }
  if (isOpaque(s)) return [`${indent}o += J(${value});`];
  const types = typesOf(s);
  const nullable = types.includes('null');
  const concrete = types.filter((t) => t !== 'null');
  if (concrete.length !== 1) return [`${indent}o += J(${value});`];
  const body = writeConcrete(w, s, concrete[0]!, value, indent + (nullable ? '  ' : ''));
  if (!nullable) return body;
  return [`${indent}if (${value} === null) o += 'null';`, `${indent}else {`, ...body, `${indent}}`];
}

function writeConcrete(w: Writer, s: JsonObject, type: string, value: string, indent: string): string[] {
  switch (type) {
    case 'string':
      return [`${indent}o += S(${value});`];
    case 'integer':
    case 'number':
      return [`${indent}o += N(${value});`];
    case 'boolean':
      return [`${indent}o += ${value} === true ? 'true' : ${value} === false ? 'false' : J(${value});`];
    case 'array':
      return writeArray(w, s, value, indent);
    case 'object':
      return writeObject(w, s, value, indent);
    default:
      return [`${indent}o += J(${value});`];
  }
}

function writeArray(w: Writer, s: JsonObject, value: string, indent: string): string[] {
  if (s.items === undefined || typeof s.items !== 'object') return [`${indent}o += J(${value});`];
  const i = `i${w.next}`;
  const item = `v${w.next++}`;
  return [
    `${indent}if (!Array.isArray(${value})) o += J(${value});`,
    `${indent}else {`,
    `${indent}  o += '[';`,
    `${indent}  for (let ${i} = 0; ${i} < ${value}.length; ${i}++) {`,
    `${indent}    if (${i} > 0) o += ',';`,
    `${indent}    const ${item} = ${value}[${i}];`,
    ...writeValue(w, s.items, item, `${indent}    `),
    `${indent}  }`,
    `${indent}  o += ']';`,
    `${indent}}`,
  ];
}

function writeObject(w: Writer, s: JsonObject, value: string, indent: string): string[] {
  const properties = Object.entries(objectOrEmpty(s.properties));
  if (s.additionalProperties !== false || properties.length === 0) return [`${indent}o += J(${value});`];
  const required = new Set(Array.isArray(s.required) ? s.required.map(String) : []);
  const lines = [`${indent}if (typeof ${value} !== 'object' || ${value} === null || Array.isArray(${value})) o += J(${value});`, `${indent}else {`];
  const inner = `${indent}  `;
  // Whether a property was written before is known while only required ones came first; after an
  // optional one it is tracked at run time (`c` holds the next separator).
  let known = true;
  let first = true;
  const sep = `c${w.next}`;
  for (const [name, propertySchema] of properties) {
    const local = `v${w.next++}`;
    const key = JSON.stringify(name);
    lines.push(`${inner}const ${local} = ${value}[${literal(name)}];`);
    const valueLines = writeValue(w, propertySchema, local, required.has(name) ? inner : `${inner}  `);
    if (required.has(name)) {
      if (known) lines.push(`${inner}o += ${literal((first ? '{' : ',') + key + ':')};`);
      else lines.push(`${inner}o += ${sep} + ${literal(key + ':')};`, `${inner}${sep} = ',';`);
      // A missing required property: null keeps the JSON valid (the response checker reports it in tests).
      lines.push(`${inner}if (${local} === undefined) o += 'null';`, `${inner}else {`, ...valueLines.map((l) => `  ${l}`), `${inner}}`);
      first = false;
      continue;
    }
    if (known) {
      lines.push(`${inner}let ${sep} = ${literal(first ? '{' : ',')};`);
      known = false;
    }
    lines.push(
      `${inner}if (${local} !== undefined) {`,
      `${inner}  o += ${sep} + ${literal(key + ':')};`,
      `${inner}  ${sep} = ',';`,
      ...valueLines,
      `${inner}}`,
    );
  }
  lines.push(known ? `${inner}o += '}';` : `${inner}o += ${sep} === '{' ? '{}' : '}';`);
  lines.push(`${indent}}`);
  return lines;
}

function reachNamed(w: Writer, name: string): void {
  if (w.named.has(name)) return;
  // Reserved before it is written, so that a schema that refers to itself ends.
  w.named.set(name, null);
  const saved = w.next;
  w.next = 0;
  const body = writeValue(w, w.schemas[name], 'v', '  ');
  w.next = saved;
  w.named.set(name, [`function ${functionName(name)}(v: any): string {`, `  let o = '';`, ...body, `  return o;`, `}`].join('\n'));
}

const runtime = `// JSON.stringify of a value a writer does not know the shape of; undefined (a missing property) as null.
const J = (v: unknown): string => JSON.stringify(v) ?? 'null';

// A short string without characters JSON escapes is written as it is; any other by JSON.stringify.
function S(v: unknown): string {
  if (typeof v !== 'string' || v.length > 64) return J(v);
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 32 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(v);
  }
  return '"' + v + '"';
}

// Number's own text is JSON's for every finite number; JSON.stringify writes the others.
const N = (v: unknown): string => (typeof v === 'number' && Number.isFinite(v) ? '' + v : J(v));
`;

export function emitSerializers(openapi: Json, operations: OperationFact[]): string {
  const w: Writer = { named: new Map(), schemas: objectOrEmpty(objectOrEmpty(objectOrEmpty(openapi).components).schemas), next: 0 };
  const entries: string[] = [];
  for (const op of operations) {
    const statuses: string[] = [];
    for (const response of op.responses) {
      if (response.contentType !== 'application/json' || !response.schema) continue;
      if (response.schemaName) {
        reachNamed(w, response.schemaName);
        statuses.push(`${response.status}: ${functionName(response.schemaName)}`);
        continue;
      }
      w.next = 0;
      const body = writeValue(w, response.schema, 'v', '    ');
      statuses.push(`${response.status}: (v: any): string => {\n    let o = '';\n${body.join('\n')}\n    return o;\n  }`);
    }
    if (statuses.length > 0) entries.push(`  ${propertyKey(op.operationId)}: { ${statuses.join(', ')} },`);
  }
  const functions = [...w.named.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, code]) => code!);
  return `${GENERATED_HEADER}/* eslint-disable */
import type { OperationId } from './operations.js';

${runtime}
${functions.join('\n\n')}

/** The JSON text of each documented JSON response body (the whole envelope), per operation and status. */
export const responseSerializers: Readonly<Partial<Record<OperationId, Readonly<Record<number, (body: unknown) => string>>>>> = {
${entries.join('\n')}
};
`;
}
