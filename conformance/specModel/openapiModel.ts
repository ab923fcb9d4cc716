// Reads the OpenAPI document into the plain facts its readers need: one entry per operation with
// its route, security, parameters, body and documented responses. Readers need not walk the raw spec.
import { componentName, resolveRef } from './jsonPointer.js';

type Json = any; // the spec is checked by Spectral and the parsers; here we only read it

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
  examples: { name: string; value: Json }[];
}

export interface OperationFact {
  operationId: string;
  method: HttpMethod;
  path: string; // OpenAPI template, e.g. /api/v1/trips/{tripPlanId}
  tags: string[];
  secured: boolean;
  requiredRole: string | null;
  parameters: ParameterFact[];
  body: { required: boolean; contentType: string; schema: Json; examples: { name: string; value: Json }[] } | null;
  responses: ResponseFact[];
}

function examplesOf(spec: Json, media: Json): { name: string; value: Json }[] {
  const out: { name: string; value: Json }[] = [];
  if (media?.example !== undefined) out.push({ name: 'example', value: media.example });
  for (const [name, example] of Object.entries<Json>(media?.examples ?? {})) {
    out.push({ name, value: resolveRef(spec, example).value });
  }
  return out;
}

export function readOperations(spec: Json): OperationFact[] {
  const globalSecured = Array.isArray(spec.security) && spec.security.length > 0;
  const operations: OperationFact[] = [];
  for (const [path, rawItem] of Object.entries<Json>(spec.paths ?? {})) {
    const item = resolveRef(spec, rawItem);
    for (const method of methods) {
      const op = item[method];
      if (!op) continue;
      if (!op.operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      const byKey = new Map<string, ParameterFact>();
      for (const raw of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
        const p = resolveRef(spec, raw);
        const schema = p.schema ?? {};
        const resolved = resolveRef(spec, schema);
        byKey.set(`${p.in}:${p.name}`, {
          name: p.name,
          in: p.in,
          required: p.in === 'path' ? true : Boolean(p.required),
          schema,
          hasDefault: resolved.default !== undefined,
          type: typeof resolved.type === 'string' ? resolved.type : null,
        });
      }
      let body: OperationFact['body'] = null;
      if (op.requestBody) {
        const rb = resolveRef(spec, op.requestBody);
        const [contentType, media] = Object.entries<Json>(rb.content ?? {})[0] ?? [];
        if (!contentType) throw new Error(`${op.operationId}: requestBody without content`);
        body = { required: Boolean(rb.required), contentType, schema: media.schema, examples: examplesOf(spec, media) };
      }
      const responses: ResponseFact[] = [];
      for (const [statusKey, rawResponse] of Object.entries<Json>(op.responses ?? {})) {
        const status = Number(statusKey);
        if (!Number.isInteger(status)) throw new Error(`${op.operationId}: response ${statusKey} must be an explicit status`);
        const response = resolveRef(spec, rawResponse);
        const headerEntries = Object.entries<Json>(response.headers ?? {}).map(([name, h]) => [name, resolveRef(spec, h)] as const);
        const [contentType, media] = Object.entries<Json>(response.content ?? {})[0] ?? [null, null];
        responses.push({
          status,
          contentType,
          contentTypes: Object.keys(response.content ?? {}),
          schema: media?.schema ?? null,
          schemaName: componentName(media?.schema?.$ref, 'schemas'),
          headers: headerEntries.map(([name]) => name),
          requiredHeaders: headerEntries.filter(([, h]) => h.required === true).map(([name]) => name),
          examples: media ? examplesOf(spec, media) : [],
        });
      }
      responses.sort((a, b) => a.status - b.status);
      operations.push({
        operationId: op.operationId,
        method,
        path,
        tags: op.tags ?? [],
        secured: op.security ? op.security.length > 0 : globalSecured,
        requiredRole: op['x-required-role'] ?? null,
        parameters: [...byKey.values()],
        body,
        responses,
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
