// client/src/generated/http/operationTable.ts: what the client's runtime needs to send each operation
// of openapi.yaml (method, path template, parameter names, body, security, the media type of its
// answer, x-paging), so the runtime names no path, parameter or operation of its own.
import type { OperationFact, ResponseFact } from '../../conformance/specModel/index.js';
import { GENERATED_HEADER } from '../naming.js';

/** The schema types a query parameter may have: form style, exploded, one value each (openapi.yaml, Conventions). */
const scalarTypes = new Set(['string', 'integer', 'number', 'boolean']);

/** A documented answer that is not an error: 1xx-3xx. */
export const isSuccess = (response: ResponseFact): boolean => response.status < 400;

function queryParameters(op: OperationFact): string[] {
  const query = op.parameters.filter((p) => p.in === 'query');
  for (const p of query) {
    if (!p.type || !scalarTypes.has(p.type)) {
      throw new Error(
        `${op.operationId}: query parameter ${p.name} must be a scalar (form style, one value); the client cannot serialise ${p.type ?? 'an untyped schema'}`,
      );
    }
  }
  return query.map((p) => p.name);
}

function pagingOf(op: OperationFact) {
  if (!op.paging) return null;
  const { cursorParameter } = op.paging;
  if (!cursorParameter || !op.parameters.some((p) => p.in === 'query' && p.name === cursorParameter)) {
    throw new Error(`${op.operationId}: x-paging must name its cursorParameter, a query parameter of the operation`);
  }
  return { ...op.paging, cursorParameter };
}

function entryOf(op: OperationFact, tokenSchemas: ReadonlySet<string>) {
  const successes = op.responses.filter(isSuccess);
  if (op.body && op.body.contentType !== 'application/json')
    throw new Error(`${op.operationId}: the client sends JSON bodies only, not ${op.body.contentType}`);
  return {
    method: op.method.toUpperCase(),
    path: op.path,
    pathParams: op.parameters.filter((p) => p.in === 'path').map((p) => p.name),
    queryParams: queryParameters(op),
    jsonBody: op.body !== null,
    secured: op.secured,
    // What the success is asked for in (errors are JSON whatever Accept says).
    accept: successes.find((r) => r.contentType !== null)?.contentType ?? 'application/json',
    redirects: successes.length > 0 && successes.every((r) => r.status >= 300),
    issuesTokens: successes.some((r) => r.schemaName !== null && tokenSchemas.has(r.schemaName)),
    paging: pagingOf(op),
  };
}

/** `tokenSchemas`: the envelopes whose `data` is a token pair (the client keeps the pair they carry). */
export function emitClientHttpTable(operations: OperationFact[], tokenSchemas: ReadonlySet<string>): string {
  const rows = operations.map((op) => `  ${op.operationId}: ${JSON.stringify(entryOf(op, tokenSchemas))},`);
  return `${GENERATED_HEADER}
import type { OperationId } from './operations.js';

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS';

/** \`x-paging\` of a cursor-paged list (openapi.yaml, the Conventions of the Trips tag). */
export interface PagingEntry {
  /** the query parameter that takes the previous page's \`nextCursor\` */
  readonly cursorParameter: string;
  readonly sizeParameter: string | null;
  /** the item field \`nextCursor\` is */
  readonly cursorField: string | null;
  readonly sortParameter: string | null;
  readonly order: string | null;
  readonly sortKeys: Readonly<Record<string, string>>;
  readonly tieBreaker: string | null;
}

export interface OperationEntry {
  readonly method: HttpMethod;
  /** OpenAPI path template, e.g. /api/v1/trips/{tripPlanId} */
  readonly path: string;
  readonly pathParams: readonly string[];
  /** serialised \`style: form, explode: true\`, one value each */
  readonly queryParams: readonly string[];
  /** the request has an \`application/json\` body */
  readonly jsonBody: boolean;
  /** the request carries the bearer token */
  readonly secured: boolean;
  /** the media type of the success answer */
  readonly accept: string;
  /** the success answer is a redirect, which is the answer (not followed) */
  readonly redirects: boolean;
  /** the success answer's \`data\` is a token pair */
  readonly issuesTokens: boolean;
  readonly paging: PagingEntry | null;
}

export const operationTable: Readonly<Record<OperationId, OperationEntry>> = {
${rows.join('\n')}
};
`;
}
