// Reads the OpenAPI document into the plain facts its readers need: one entry per operation with
// its route, security, parameters, body and documented responses. Readers need not walk the raw spec.
import { arrayOrEmpty, objectOrEmpty, stringOrUndefined, type Json, type JsonObject } from './json.js';
import { componentName, resolveObject } from './jsonPointer.js';
import { readPaging, type PagingFact } from './pagingExtension.js';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options';
const methods: HttpMethod[] = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

export interface ParameterFact {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Json;
  hasDefault: boolean;
  /** `type` of the (resolved) schema, e.g. `integer`; null when it has none */
  type: string | null;
}

export interface ResponseFact {
  status: number;
  contentType: string | null; // null: no body (204)
  /** every documented media type, `contentType` first; more than one means content negotiation */
  contentTypes: string[];
  schema: Json | null;
  schemaName: string | null; // components.schemas name when the schema is a plain $ref
  requiredHeaders: string[];
  headers: string[];
  /** each documented header with a schema, and that schema (as written, refs unresolved) */
  headerSchemas: { name: string; schema: Json }[];
  /** `x-error-codes`: the error codes this response is sent with; null when it has none */
  errorCodes: string[] | null;
  examples: { name: string; value: Json | undefined }[];
}

export interface OperationFact {
  operationId: string;
  method: HttpMethod;
  path: string; // OpenAPI template, e.g. /api/v1/trips/{tripPlanId}
  tags: string[];
  secured: boolean;
  requiredRole: string | null;
  parameters: ParameterFact[];
  body: { required: boolean; contentType: string; schema: Json | undefined; examples: { name: string; value: Json | undefined }[] } | null;
  responses: ResponseFact[];
  /** `x-paging` of a cursor-paged list; null for any other operation */
  paging: PagingFact | null;
}

function examplesOf(spec: JsonObject, media: JsonObject): { name: string; value: Json | undefined }[] {
  const out: { name: string; value: Json | undefined }[] = [];
  if (media.example !== undefined) out.push({ name: 'example', value: media.example });
  for (const [name, example] of Object.entries(objectOrEmpty(media.examples))) {
    out.push({ name, value: resolveObject(spec, example).value });
  }
  return out;
}

// The spec is checked by Spectral and the parsers; the `in` of a parameter is one of these there.
const parameterLocation = (value: Json | undefined): ParameterFact['in'] => value as ParameterFact['in'];

export function readOperations(spec: JsonObject): OperationFact[] {
  const globalSecured = arrayOrEmpty(spec.security).length > 0;
  const operations: OperationFact[] = [];
  for (const [path, rawItem] of Object.entries(objectOrEmpty(spec.paths))) {
    const item = resolveObject(spec, rawItem);
    for (const method of methods) {
      if (!item[method]) continue;
      const op = objectOrEmpty(item[method]);
      const operationId = stringOrUndefined(op.operationId);
      if (!operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      const byKey = new Map<string, ParameterFact>();
      for (const raw of [...arrayOrEmpty(item.parameters), ...arrayOrEmpty(op.parameters)]) {
        const p = resolveObject(spec, raw);
        const schema = p.schema ?? {};
        const resolved = resolveObject(spec, schema);
        const location = parameterLocation(p.in);
        const name = stringOrUndefined(p.name) ?? '';
        byKey.set(`${location}:${name}`, {
          name,
          in: location,
          required: location === 'path' ? true : Boolean(p.required),
          schema,
          hasDefault: resolved.default !== undefined,
          type: stringOrUndefined(resolved.type) ?? null,
        });
      }
      let body: OperationFact['body'] = null;
      if (op.requestBody) {
        const rb = resolveObject(spec, op.requestBody);
        const [contentType, media] = Object.entries(objectOrEmpty(rb.content))[0] ?? [];
        if (!contentType) throw new Error(`${operationId}: requestBody without content`);
        const mediaObject = objectOrEmpty(media);
        body = { required: Boolean(rb.required), contentType, schema: mediaObject.schema, examples: examplesOf(spec, mediaObject) };
      }
      const responses: ResponseFact[] = [];
      for (const [statusKey, rawResponse] of Object.entries(objectOrEmpty(op.responses))) {
        const status = Number(statusKey);
        if (!Number.isInteger(status)) throw new Error(`${operationId}: response ${statusKey} must be an explicit status`);
        const response = resolveObject(spec, rawResponse);
        const headerEntries = Object.entries(objectOrEmpty(response.headers)).map(([name, h]) => [name, resolveObject(spec, h)] as const);
        const [contentType, media] = Object.entries(objectOrEmpty(response.content))[0] ?? [null, null];
        const mediaObject = media === null ? null : objectOrEmpty(media);
        responses.push({
          status,
          contentType,
          contentTypes: Object.keys(objectOrEmpty(response.content)),
          schema: mediaObject?.schema ?? null,
          schemaName: componentName(objectOrEmpty(mediaObject?.schema).$ref, 'schemas'),
          headers: headerEntries.map(([name]) => name),
          requiredHeaders: headerEntries.filter(([, h]) => h.required === true).map(([name]) => name),
          headerSchemas: headerEntries.filter(([, h]) => h.schema !== undefined).map(([name, h]) => ({ name, schema: h.schema! })),
          errorCodes: Array.isArray(response['x-error-codes']) ? response['x-error-codes'].filter((code) => typeof code === 'string') : null,
          examples: mediaObject ? examplesOf(spec, mediaObject) : [],
        });
      }
      responses.sort((a, b) => a.status - b.status);
      operations.push({
        operationId,
        method,
        path,
        tags: arrayOrEmpty(op.tags).filter((tag) => typeof tag === 'string'),
        secured: op.security ? arrayOrEmpty(op.security).length > 0 : globalSecured,
        requiredRole: stringOrUndefined(op['x-required-role']) ?? null,
        parameters: [...byKey.values()],
        body,
        responses,
        paging: readPaging(op['x-paging']),
      });
    }
  }
  return operations;
}

/**
 * Response headers required on every response of every operation (X-Request-Id): the server's
 * middleware sets them on whatever a handler returns, so handlers neither return nor are checked for them.
 */
export function serverResponseHeaders(operations: OperationFact[]): string[] {
  const [first, ...rest] = operations.flatMap((op) => op.responses);
  if (!first) return [];
  return first.requiredHeaders.filter((header) => rest.every((r) => r.requiredHeaders.includes(header)));
}
