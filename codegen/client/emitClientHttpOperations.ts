// client/src/generated/http/operations.ts: per operation of openapi.yaml, its input (path, query,
// body), its Result (each documented success with the envelope's `data`, or a Failure) and one typed
// function that sends it; then the maps the client is typed by (`Operations`, `OperationInputs`, ...).
import {
  arrayOrEmpty,
  componentName,
  jsonAt,
  objectOrEmpty,
  resolveObject,
  stringOrUndefined,
  type JsonObject,
  type OperationFact,
  type ResponseFact,
} from '../../conformance/specModel/index.js';
import { defaultedProperties } from '../emitOperationTypes.js';
import { GENERATED_HEADER, pascalCase } from '../naming.js';
import { isSuccess } from './emitClientHttpTable.js';

const quoted = (text: string): string => JSON.stringify(text);

/** `GET /api/v1/trips: List my trip plans`, safe inside a block comment. */
function title(spec: JsonObject, op: OperationFact): string {
  const summary = stringOrUndefined(jsonAt(resolveObject(spec, jsonAt(spec, 'paths', op.path)), op.method, 'summary'));
  return `${op.method.toUpperCase()} ${op.path}${summary ? `: ${summary}` : ''}`.replace(/\*\//g, '*\\/');
}

/** The body type; fields with a spec default become optional (the server fills them in), unless the schema requires them anyway. */
function bodyType(spec: JsonObject, op: OperationFact, body: NonNullable<OperationFact['body']>): string {
  const name = componentName(jsonAt(body.schema, '$ref'), 'schemas');
  const base = name ? `Schemas[${quoted(name)}]` : `NonNullable<operations[${quoted(op.operationId)}]["requestBody"]>["content"][${quoted(body.contentType)}]`;
  const required = new Set(arrayOrEmpty(resolveObject(spec, body.schema).required));
  const optional = defaultedProperties(spec, body.schema).filter((field) => !required.has(field));
  return optional.length ? `DefaultsOptional<${base}, ${optional.map(quoted).join(' | ')}>` : base;
}

function inputFields(spec: JsonObject, op: OperationFact): string[] {
  const parameters = (location: 'path' | 'query') => `operations[${quoted(op.operationId)}]["parameters"][${quoted(location)}]`;
  const fields: string[] = [];
  if (op.parameters.some((p) => p.in === 'path')) fields.push(`path: ${parameters('path')};`);
  const query = op.parameters.filter((p) => p.in === 'query');
  if (query.some((p) => p.required)) fields.push(`query: NonNullable<${parameters('query')}>;`);
  else if (query.length) fields.push(`query?: ${parameters('query')};`);
  if (op.body) fields.push(`body${op.body.required ? '' : '?'}: ${bodyType(spec, op, op.body)};`);
  return fields;
}

function dataType(op: OperationFact, response: ResponseFact): string {
  if (response.contentType === null) return 'undefined';
  if (response.contentType !== 'application/json') return 'string';
  if (!response.schemaName) throw new Error(`${op.operationId} ${response.status}: a JSON answer must reference a named envelope schema`);
  return `DataOf<Schemas[${quoted(response.schemaName)}]>`;
}

function resultType(op: OperationFact): string {
  const successes = op.responses.filter(isSuccess).map((r) => `Success<${r.status}, ${dataType(op, r)}>`);
  return [...successes, 'Failure'].join(' | ');
}

/** Nothing in the input is required: the function's input may be left out. */
const inputOptional = (op: OperationFact): boolean =>
  !op.parameters.some((p) => (p.in === 'path' || p.in === 'query') && p.required) && !(op.body && op.body.required);

function operationBlock(spec: JsonObject, op: OperationFact): string {
  const name = pascalCase(op.operationId);
  const fields = inputFields(spec, op);
  const input = fields.length
    ? `export interface ${name}Input extends CallOptions {\n${fields.map((f) => `  ${f}`).join('\n')}\n}`
    : `export type ${name}Input = CallOptions;`;
  const parameter = inputOptional(op) ? `input: ${name}Input = {}` : `input: ${name}Input`;
  return `/** ${title(spec, op)} */
${input}
export type ${name}Result = ${resultType(op)};
/** ${title(spec, op)} */
export function ${op.operationId}(send: Send, ${parameter}): Promise<${name}Result> {
  return send(${quoted(op.operationId)}, input);
}
`;
}

export function emitClientHttpOperations(spec: JsonObject, operations: OperationFact[]): string {
  const name = (op: OperationFact) => pascalCase(op.operationId);
  const paged = operations.filter((op) => op.paging);
  return `${GENERATED_HEADER}
import type { components, operations } from './openapi.js';
import type { CallOptions, Failure, Success } from '../../http/result.js';

type Schemas = components['schemas'];
/** The payload inside a \`CommonResponse\` envelope. */
type DataOf<Envelope> = Envelope extends { data: infer Data } ? Data : never;
/** Fields with a spec default may be left out of a request: the server fills them in. */
type DefaultsOptional<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

/** Sends one operation: what every function below calls (the client's \`call\`). */
export type Send = <K extends OperationId>(operationId: K, input: OperationInputs[K]) => Promise<OperationResults[K]>;

${operations.map((op) => operationBlock(spec, op)).join('\n')}
export interface OperationInputs {
${operations.map((op) => `  ${op.operationId}: ${name(op)}Input;`).join('\n')}
}
export interface OperationResults {
${operations.map((op) => `  ${op.operationId}: ${name(op)}Result;`).join('\n')}
}
export type OperationId = keyof OperationInputs;
/** The operations with \`x-paging\`: cursor-paged lists. */
export type PagedOperationId = ${paged.length ? paged.map((op) => quoted(op.operationId)).join(' | ') : 'never'};

/** Every operation, bound to one client. */
export interface Operations {
${operations.map((op) => `  /** ${title(spec, op)} */\n  ${op.operationId}(input${inputOptional(op) ? '?' : ''}: ${name(op)}Input): Promise<${name(op)}Result>;`).join('\n')}
}

export function bindOperations(send: Send): Operations {
  return {
${operations.map((op) => `    ${op.operationId}: (input) => ${op.operationId}(send, input),`).join('\n')}
  };
}
`;
}

/** The schemas whose \`data\` is \`tokenSchema\` (the envelopes of the operations that issue a token pair). */
export function envelopesOf(spec: JsonObject, tokenSchema: string): Set<string> {
  const schemas = objectOrEmpty(jsonAt(spec, 'components', 'schemas'));
  return new Set(Object.keys(schemas).filter((name) => componentName(jsonAt(schemas[name], 'properties', 'data', '$ref'), 'schemas') === tokenSchema));
}
