// generated/routes.ts: the route table the server registers (method, path, operationId, security,
// role, parameters, body and per-status response facts), straight from the spec.
import { GENERATED_HEADER } from './naming.js';
import { mapPlaceholders, serverResponseHeaders, templatePattern, type OperationFact } from '../conformance/specModel/index.js';

const honoPath = (path: string): string => mapPlaceholders(path, (name) => `:${name}`);

export function emitRouteTable(operations: OperationFact[]): string {
  const routes = operations.map((op) => ({
    operationId: op.operationId,
    method: op.method.toUpperCase(),
    path: op.path,
    honoPath: honoPath(op.path),
    pattern: templatePattern(op.path),
    tags: op.tags,
    secured: op.secured,
    requiredRole: op.requiredRole,
    pathParams: op.parameters.filter((p) => p.in === 'path').map((p) => p.name),
    queryParams: op.parameters.filter((p) => p.in === 'query').map((p) => p.name),
    integerParams: {
      path: op.parameters.filter((p) => p.in === 'path' && p.type === 'integer').map((p) => p.name),
      query: op.parameters.filter((p) => p.in === 'query' && p.type === 'integer').map((p) => p.name),
    },
    body: op.body ? { required: op.body.required, contentType: op.body.contentType } : null,
    responses: Object.fromEntries(
      op.responses.map((r) => [
        r.status,
        // otherContentTypes only where a response documents several media types (undefined drops the key)
        {
          contentType: r.contentType,
          otherContentTypes: r.contentTypes.length > 1 ? r.contentTypes.slice(1) : undefined,
          headers: r.headers,
          requiredHeaders: r.requiredHeaders,
        },
      ]),
    ),
  }));
  return `${GENERATED_HEADER}
import type { OperationId } from './operations.js';

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS';

export interface ResponseFacts {
  /** null: the response has no body */
  readonly contentType: string | null;
  /** further media types the handler may choose instead (content negotiation by Accept) */
  readonly otherContentTypes?: readonly string[];
  readonly headers: readonly string[];
  readonly requiredHeaders: readonly string[];
}

export interface RouteDefinition {
  readonly operationId: OperationId;
  readonly method: HttpMethod;
  /** OpenAPI path template, e.g. /api/v1/trips/{tripPlanId} */
  readonly path: string;
  /** The same path in Hono's syntax, e.g. /api/v1/trips/:tripPlanId */
  readonly honoPath: string;
  /** A regular expression source matching concrete paths of this route */
  readonly pattern: string;
  readonly tags: readonly string[];
  /** true when the operation needs a bearer token */
  readonly secured: boolean;
  /** x-required-role of the operation, e.g. ADMIN */
  readonly requiredRole: string | null;
  readonly pathParams: readonly string[];
  readonly queryParams: readonly string[];
  /** Parameters whose schema is an integer: their text must be a canonical decimal (no sign, leading zero, space, point or exponent) */
  readonly integerParams: { readonly path: readonly string[]; readonly query: readonly string[] };
  readonly body: { readonly required: boolean; readonly contentType: string } | null;
  readonly responses: Readonly<Record<number, ResponseFacts>>;
}

export const routes: readonly RouteDefinition[] = ${JSON.stringify(routes, null, 2)};

/** Headers required on every response of every operation: set by the server's middleware, not by handlers. */
export const serverResponseHeaders: readonly string[] = ${JSON.stringify(serverResponseHeaders(operations))};
`;
}
