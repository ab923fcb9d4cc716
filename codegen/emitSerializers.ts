// generated/serializers.ts: a JSON writer per documented JSON response, compiled from its schema.
// JSON.stringify walks an object's own keys and looks at every value's type; a writer that already
// knows the keys and their types writes a trip page in about half the time (3.2 µs instead of
// 6.5 µs for 20 plans, `npm run bench:serializer`): the largest framework cost the list request had
// left next to Fastify, whose fast-json-stringify does the same from the same schema.
// A writer knows closed objects (`additionalProperties: false`, the spec's rule for every
// response), arrays, strings, numbers and booleans; every object or array schema is a function
// (a named schema's `w_<Name>`, an inline one's `<parent>$<property>`). Anything else (oneOf, open
// objects, no type) is written by JSON.stringify. The output is always valid JSON and parses to the
// value restricted to the documented properties, whatever the value holds: a value of another type
// than documented (null of a nullable type among them) is written by JSON.stringify, and a missing
// required property as null.
import { GENERATED_HEADER, propertyKey } from './naming.js';
import { componentName, objectOrEmpty, type Json, type JsonObject, type OperationFact } from '../conformance/specModel/index.js';

interface Writer {
  /** the functions written so far by name (null while one is being written: a schema may refer to itself) */
  functions: Map<string, string | null>;
  /** each named schema reached: the writer that writes it */
  named: Map<string, string>;
  schemas: JsonObject;
}

/** A JavaScript string literal in single quotes (the JSON text inside keeps its double quotes readable). */
const literal = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

const identifier = (text: string) => text.replace(/[^A-Za-z0-9_$]/g, '_');

/** `v.name`, or `v['na-me']` when the name is no identifier. */
const member = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? `v.${name}` : `v[${literal(name)}]`);

const typesOf = (schema: JsonObject): string[] => (Array.isArray(schema.type) ? schema.type.map(String) : typeof schema.type === 'string' ? [schema.type] : []);

/** Schemas whose shape a writer cannot know: JSON.stringify writes them. */
function isOpaque(schema: JsonObject): boolean {
  return ['allOf', 'oneOf', 'anyOf', 'not', 'if', 'patternProperties', 'unevaluatedProperties', 'prefixItems'].some((k) => k in schema);
}

/**
 * The function that writes a value of `schema`: a runtime helper (J, S, N, B) or a generated one,
 * named `name` when the schema needs its own. Null and undefined go to J in every one of them.
 */
function writerOf(w: Writer, schema: Json | undefined, name: string): string {
  const s = objectOrEmpty(schema);
  const ref = componentName(s.$ref, 'schemas');
  if (ref !== null) return namedWriter(w, ref);
  const concrete = typesOf(s).filter((t) => t !== 'null');
  if (isOpaque(s) || concrete.length !== 1) return 'J';
  switch (concrete[0]) {
    case 'string':
      return 'S';
    case 'integer':
    case 'number':
      return 'N';
    case 'boolean':
      return 'B';
    case 'array':
      return s.items !== undefined && typeof s.items === 'object' ? define(w, name, () => arrayFunction(w, s, name)) : 'J';
    case 'object':
      return s.additionalProperties === false && Object.keys(objectOrEmpty(s.properties)).length > 0 ? define(w, name, () => objectFunction(w, s, name)) : 'J';
    default:
      return 'J';
  }
}

/** A named schema's writer: its function `w_<Name>`, or the helper of a primitive one. */
function namedWriter(w: Writer, schemaName: string): string {
  const known = w.named.get(schemaName);
  if (known !== undefined) return known;
  const name = `w_${identifier(schemaName)}`;
  // Set before it is written, so that a schema that refers to itself calls its own function.
  w.named.set(schemaName, name);
  const writer = writerOf(w, w.schemas[schemaName], name);
  w.named.set(schemaName, writer);
  return writer;
}

/** Writes the function `name` with `body` once; returns its name. */
function define(w: Writer, name: string, body: () => string): string {
  if (!w.functions.has(name)) {
    w.functions.set(name, null);
    w.functions.set(name, body());
  }
  return name;
}

function arrayFunction(w: Writer, s: JsonObject, name: string): string {
  const item = writerOf(w, s.items, `${name}$item`);
  return [
    `function ${name}(v: any): string {`,
    `  if (!Array.isArray(v)) return J(v);`,
    `  let o = '[';`,
    `  for (let i = 0; i < v.length; i++) o += (i > 0 ? ',' : '') + ${item}(v[i]);`,
    `  return o + ']';`,
    `}`,
  ].join('\n');
}

function objectFunction(w: Writer, s: JsonObject, name: string): string {
  const required = new Set(Array.isArray(s.required) ? s.required.map(String) : []);
  const lines = [`function ${name}(v: any): string {`, `  if (typeof v !== 'object' || v === null || Array.isArray(v)) return J(v);`];
  // While only required properties came first, whether one was written is known here; after an
  // optional one, `c` holds the next separator at run time.
  let known = true;
  let written = false;
  for (const [property, propertySchema] of Object.entries(objectOrEmpty(s.properties))) {
    const value = `${writerOf(w, propertySchema, `${name}$${identifier(property)}`)}(${member(property)})`;
    const key = `${JSON.stringify(property)}:`;
    if (!required.has(property)) {
      if (known) lines.push(`  let c = ${literal(written ? ',' : '{')};`, ...(written ? [] : [`  let o = '';`]));
      known = false;
      lines.push(`  if (${member(property)} !== undefined) {`, `    o += c + ${literal(key)} + ${value};`, `    c = ',';`, `  }`);
    } else if (known) {
      lines.push(written ? `  o += ${literal(`,${key}`)} + ${value};` : `  let o = ${literal(`{${key}`)} + ${value};`);
    } else {
      lines.push(`  o += c + ${literal(key)} + ${value};`, `  c = ',';`);
    }
    written = true;
  }
  lines.push(known ? `  return o + '}';` : `  return c === '{' ? '{}' : o + '}';`, `}`);
  return lines.join('\n');
}

const runtime = `// JSON.stringify of a value a writer does not know the shape of (null of a nullable type the
// commonest); undefined (a missing property) as null.
const J = (v: unknown): string => (v === null ? 'null' : (JSON.stringify(v) ?? 'null'));

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

const B = (v: unknown): string => (v === true ? 'true' : v === false ? 'false' : J(v));
`;

export function emitSerializers(openapi: Json, operations: OperationFact[]): string {
  const w: Writer = { functions: new Map(), named: new Map(), schemas: objectOrEmpty(objectOrEmpty(objectOrEmpty(openapi).components).schemas) };
  const entries: string[] = [];
  for (const op of operations) {
    const statuses = op.responses
      .filter((response) => response.contentType === 'application/json' && response.schema)
      .map((response) => `${response.status}: ${writerOf(w, response.schema, `r_${identifier(op.operationId)}_${response.status}`)}`);
    if (statuses.length > 0) entries.push(`  ${propertyKey(op.operationId)}: { ${statuses.join(', ')} },`);
  }
  const functions = [...w.functions.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, code]) => code!);
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
