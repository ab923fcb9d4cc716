// generated/operations.ts: per operation, the request type (path, query, body) and the union of the
// documented responses `{status, body}`, plus the `Handlers` map type. An undocumented status, a
// wrong body, a missing handler or a handler for an unknown operation does not compile.
import { GENERATED_HEADER, pascalCase, propertyKey } from './naming.js';
import {
  componentName,
  jsonAt,
  objectOrEmpty,
  resolveObject,
  serverResponseHeaders,
  type Json,
  type JsonObject,
  type OperationFact,
  type ResponseFact,
} from '../conformance/specModel/index.js';

/** The properties of a (referenced) object schema that have a `default`. */
export function defaultedProperties(spec: JsonObject, schema: Json | undefined): string[] {
  const resolved = resolveObject(spec, schema);
  return Object.entries(objectOrEmpty(resolved.properties))
    .filter(([, prop]) => jsonAt(prop, 'default') !== undefined || resolveObject(spec, prop).default !== undefined)
    .map(([name]) => name);
}

function bodyType(spec: JsonObject, op: OperationFact): string {
  if (!op.body) return 'undefined';
  const name = componentName(jsonAt(op.body.schema, '$ref'), 'schemas');
  const base = name
    ? `Schemas[${JSON.stringify(name)}]`
    : `NonNullable<operations[${JSON.stringify(op.operationId)}]['requestBody']>['content'][${JSON.stringify(op.body.contentType)}]`;
  const defaults = defaultedProperties(spec, op.body.schema);
  const typed = defaults.length ? `WithDefaults<${base}, ${defaults.map((d) => JSON.stringify(d)).join(' | ')}>` : base;
  return op.body.required ? typed : `${typed} | undefined`;
}

function paramsType(op: OperationFact, location: 'path' | 'query'): string {
  const params = op.parameters.filter((p) => p.in === location);
  if (params.length === 0) return 'Record<string, never>';
  const base = `NonNullable<operations[${JSON.stringify(op.operationId)}]['parameters'][${JSON.stringify(location)}]>`;
  const defaults = params.filter((p) => p.hasDefault).map((p) => JSON.stringify(p.name));
  return defaults.length ? `WithDefaults<${base}, ${defaults.join(' | ')}>` : base;
}

function responseMember(response: ResponseFact, serverHeaders: string[]): string {
  const parts = [`status: ${response.status}`];
  if (response.contentType === null) parts.push('body?: undefined');
  else if (response.contentType === 'application/json' && response.schemaName) parts.push(`body: DataOf<Schemas[${JSON.stringify(response.schemaName)}]>`);
  else if (response.contentType === 'application/json') throw new Error(`status ${response.status}: JSON responses must reference a named envelope schema`);
  else parts.push('body: string');
  const handlerHeaders = response.requiredHeaders.filter((h) => !serverHeaders.includes(h));
  if (handlerHeaders.length) {
    parts.push(`headers: { ${handlerHeaders.map((h) => `${propertyKey(h)}: string`).join('; ')} } & ExtraHeaders`);
  } else {
    parts.push('headers?: ExtraHeaders');
  }
  return `{ ${parts.join('; ')} }`;
}

/**
 * A response documented with several media types (content negotiation): the first is the default
 * member above; each further one is a member the handler picks by naming its `contentType`. Only
 * text representations (e.g. an HTML page next to JSON) are supported as alternatives.
 */
function alternativeMembers(response: ResponseFact, serverHeaders: string[]): string[] {
  return response.contentTypes.slice(1).map((type) => {
    if (!type.startsWith('text/')) throw new Error(`status ${response.status}: an alternative media type must be text/*, not ${type}`);
    return responseMember({ ...response, contentType: type }, serverHeaders).replace(
      /^\{ status: \d+;/,
      (head) => `${head} contentType: ${JSON.stringify(type)};`,
    );
  });
}

export function emitOperationTypes(spec: JsonObject, operations: OperationFact[]): string {
  const out: string[] = [GENERATED_HEADER];
  const serverHeaders = serverResponseHeaders(operations);
  out.push(`import type { components, operations } from './openapi.js';

type Schemas = components['schemas'];
/** The payload inside a \`CommonResponse\` envelope; handlers return it and the server wraps it. */
export type DataOf<Envelope> = Envelope extends { data: infer Data } ? Data : never;
/** Parameters and fields with a spec default are always present after validation. */
export type WithDefaults<T, K extends keyof NonNullable<T>> = Omit<NonNullable<T>, K> & Required<Pick<NonNullable<T>, K>>;
/** Headers a handler may add beyond the documented required ones (e.g. Cache-Control). */
export type ExtraHeaders = Record<string, string>;
`);
  for (const op of operations) {
    const name = pascalCase(op.operationId);
    out.push(`/** ${op.method.toUpperCase()} ${op.path} */
export interface ${name}Request {
  path: ${paramsType(op, 'path')};
  query: ${paramsType(op, 'query')};
  body: ${bodyType(spec, op)};
}
export type ${name}Response =
${op.responses
  .flatMap((r) => [responseMember(r, serverHeaders), ...alternativeMembers(r, serverHeaders)])
  .map((member) => `  | ${member}`)
  .join('\n')};
`);
  }
  out.push(`export interface OperationTypes {
${operations.map((op) => `  ${op.operationId}: { request: ${pascalCase(op.operationId)}Request; response: ${pascalCase(op.operationId)}Response };`).join('\n')}
}
export type OperationId = keyof OperationTypes;
export type OperationRequest<K extends OperationId> = OperationTypes[K]['request'];
export type OperationResponse<K extends OperationId> = OperationTypes[K]['response'];
export type Handler<K extends OperationId, Ctx> = (
  request: OperationRequest<K>,
  ctx: Ctx,
) => OperationResponse<K> | Promise<OperationResponse<K>>;
/** One handler per operationId of specs/openapi.yaml, no more, no less. */
export type Handlers<Ctx> = { [K in OperationId]: Handler<K, Ctx> };

export const operationIds = [
${operations.map((op) => `  ${JSON.stringify(op.operationId)},`).join('\n')}
] as const satisfies readonly OperationId[];
`);
  return out.join('\n');
}
