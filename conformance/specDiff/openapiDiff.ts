// Compares two OpenAPI documents operation by operation, on the facts readOperations extracts
// (so $ref'd parameters, path-level parameters and shared responses are already resolved).
import { mapPlaceholders, placeholderNames, readOperations, type OperationFact, type ParameterFact, type ResponseFact } from '../specModel/index.js';
import { collector, type Change, type Report } from './change.js';
import { diffSchema } from './schemaDiff.js';
import { diffSchemaNames } from './schemaNamesDiff.js';
import { diffOpenapiServers } from './serversDiff.js';

import type { JsonObject } from '../specModel/index.js';

// Path parameter names are not on the wire: /trips/{id} and /trips/{tripPlanId} are one route.
const routeKey = (op: OperationFact): string => `${op.method.toUpperCase()} ${mapPlaceholders(op.path, () => '{}')}`;
const describe = (op: OperationFact): string => `${op.operationId} ${op.method.toUpperCase()} ${op.path}`;
const isSuccess = (status: number): boolean => status >= 200 && status < 300;

export function diffOpenapi(oldSpec: JsonObject, newSpec: JsonObject): Change[] {
  const { changes, report } = collector('openapi');
  diffOpenapiServers(oldSpec, newSpec, report);
  const oldOps = readOperations(oldSpec);
  const newOps = readOperations(newSpec);
  const unmatched = new Map(newOps.map((op) => [routeKey(op), op]));
  const pairs: [OperationFact, OperationFact][] = [];
  const orphans: OperationFact[] = [];
  for (const op of oldOps) {
    const match = unmatched.get(routeKey(op));
    if (match) {
      unmatched.delete(routeKey(op));
      pairs.push([op, match]);
    } else orphans.push(op);
  }
  for (const op of orphans) {
    // Same operationId on another route: the operation moved, which breaks every caller just the same,
    // but its contents are still worth comparing.
    const moved = [...unmatched.values()].find((candidate) => candidate.operationId === op.operationId);
    if (moved) {
      unmatched.delete(routeKey(moved));
      report('breaking', 'operation-moved', describe(op), `moved to ${moved.method.toUpperCase()} ${moved.path}; clients calling the old route get 404/405`);
      pairs.push([op, moved]);
    } else {
      report('breaking', 'operation-removed', describe(op), 'operation removed; clients calling it get 404/405');
    }
  }
  for (const op of unmatched.values()) report('non-breaking', 'operation-added', describe(op), 'new operation');
  for (const [oldOp, newOp] of pairs) diffOperation(oldSpec, newSpec, oldOp, newOp, report);
  diffSchemaNames(oldSpec, newSpec, report);
  return changes;
}

function diffOperation(oldSpec: JsonObject, newSpec: JsonObject, oldOp: OperationFact, newOp: OperationFact, report: Report): void {
  const where = describe(newOp);
  if (!oldOp.secured && newOp.secured) report('breaking', 'security-added', where, 'now requires a bearer token; anonymous callers get 401');
  if (oldOp.secured && !newOp.secured) report('non-breaking', 'security-removed', where, 'no longer requires a bearer token');
  if (newOp.requiredRole && newOp.requiredRole !== oldOp.requiredRole) {
    report('breaking', 'required-role-added', where, `now requires role ${newOp.requiredRole}; other callers get 403`);
  }
  if (oldOp.requiredRole && !newOp.requiredRole) report('non-breaking', 'required-role-removed', where, `no longer requires role ${oldOp.requiredRole}`);
  diffParameters(oldSpec, newSpec, oldOp, newOp, report);
  diffRequestBody(oldSpec, newSpec, oldOp, newOp, report);
  diffResponses(oldSpec, newSpec, oldOp, newOp, report);
}

// Path parameters are matched by position (see routeKey); query and header ones by name.
function parameterKey(op: OperationFact, p: ParameterFact): string {
  if (p.in !== 'path') return `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
  return `path:${placeholderNames(op.path).indexOf(p.name)}`;
}

function diffParameters(oldSpec: JsonObject, newSpec: JsonObject, oldOp: OperationFact, newOp: OperationFact, report: Report): void {
  const where = describe(newOp);
  const oldParams = new Map(oldOp.parameters.map((p) => [parameterKey(oldOp, p), p]));
  const newParams = new Map(newOp.parameters.map((p) => [parameterKey(newOp, p), p]));
  const moved = new Set<string>();
  for (const [key, p] of oldParams) {
    const next = newParams.get(key);
    if (!next) {
      const elsewhere = newOp.parameters.find((q) => q.name === p.name && q.in !== p.in);
      if (elsewhere) {
        moved.add(parameterKey(newOp, elsewhere));
        report(
          'breaking',
          'request-parameter-moved',
          `${where} ${p.in} parameter ${p.name}`,
          `moved from ${p.in} to ${elsewhere.in}; clients send it in the wrong place`,
        );
      } else {
        report(
          'breaking',
          'request-parameter-removed',
          `${where} ${p.in} parameter ${p.name}`,
          'parameter removed (or renamed); clients sending it lose its effect',
        );
      }
      continue;
    }
    const at = `${where} ${next.in} parameter ${next.name}`;
    if (!p.required && next.required) report('breaking', 'request-parameter-became-required', at, 'now required; requests without it are rejected');
    if (p.required && !next.required) report('non-breaking', 'request-parameter-became-optional', at, 'now optional');
    diffSchema({ oldSpec, newSpec, direction: 'request', where: at, report }, p.schema, next.schema);
  }
  for (const [key, p] of newParams) {
    if (oldParams.has(key) || moved.has(key)) continue;
    const at = `${where} ${p.in} parameter ${p.name}`;
    if (p.required) report('breaking', 'request-parameter-added-required', at, 'new required parameter; requests without it are rejected');
    else report('non-breaking', 'request-parameter-added', at, 'new optional parameter');
  }
}

function diffRequestBody(oldSpec: JsonObject, newSpec: JsonObject, oldOp: OperationFact, newOp: OperationFact, report: Report): void {
  const where = `${describe(newOp)} request body`;
  const [before, after] = [oldOp.body, newOp.body];
  if (!before && !after) return;
  if (!before) {
    if (after!.required) report('breaking', 'request-body-added-required', where, 'new required request body; requests without it are rejected');
    else report('non-breaking', 'request-body-added', where, 'new optional request body');
    return;
  }
  if (!after) {
    report('breaking', 'request-body-removed', where, 'request body removed; clients sending one may be rejected');
    return;
  }
  if (!before.required && after.required) report('breaking', 'request-body-became-required', where, 'now required; requests without a body are rejected');
  if (before.contentType !== after.contentType) {
    report('breaking', 'request-media-type-changed', where, `media type ${before.contentType} → ${after.contentType}; clients send the old one`);
  }
  diffSchema({ oldSpec, newSpec, direction: 'request', where, report }, before.schema, after.schema);
}

function diffResponses(oldSpec: JsonObject, newSpec: JsonObject, oldOp: OperationFact, newOp: OperationFact, report: Report): void {
  const where = describe(newOp);
  const oldByStatus = new Map(oldOp.responses.map((r) => [r.status, r]));
  const newByStatus = new Map(newOp.responses.map((r) => [r.status, r]));
  const pairs: [ResponseFact, ResponseFact][] = [];
  // A success status that disappeared while another appeared is one change (e.g. 200 → 201), and
  // the bodies under the two statuses are still compared.
  const newSuccesses = newOp.responses.filter((r) => isSuccess(r.status) && !oldByStatus.has(r.status));
  for (const old of oldOp.responses) {
    const next = newByStatus.get(old.status);
    if (next) {
      pairs.push([old, next]);
      continue;
    }
    const replacement = isSuccess(old.status) ? newSuccesses.shift() : undefined;
    if (replacement) {
      report('breaking', 'response-success-status-changed', where, `success status ${old.status} → ${replacement.status}; clients checking the status break`);
      newByStatus.delete(replacement.status);
      pairs.push([old, replacement]);
    } else {
      report('breaking', 'response-status-removed', `${where} response ${old.status}`, 'documented response removed; clients handling it break');
    }
  }
  for (const next of newByStatus.values()) {
    if (oldByStatus.has(next.status)) continue;
    report('non-breaking', 'response-status-added', `${where} response ${next.status}`, 'new documented response; clients should handle unknown statuses');
  }
  for (const [old, next] of pairs) diffResponse(oldSpec, newSpec, where, old, next, report);
}

function diffResponse(oldSpec: JsonObject, newSpec: JsonObject, operation: string, old: ResponseFact, next: ResponseFact, report: Report): void {
  const where = `${operation} response ${next.status}`;
  for (const header of old.headers) {
    const wasRequired = old.requiredHeaders.includes(header);
    if (!next.headers.includes(header)) {
      if (wasRequired) report('breaking', 'response-header-removed', `${where} header ${header}`, 'required header removed; clients reading it break');
      else report('non-breaking', 'response-header-removed', `${where} header ${header}`, 'optional header removed');
    } else if (wasRequired && !next.requiredHeaders.includes(header)) {
      report('breaking', 'response-header-became-optional', `${where} header ${header}`, 'no longer required; clients relying on it break');
    }
  }
  for (const header of next.headers) {
    if (!old.headers.includes(header)) report('non-breaking', 'response-header-added', `${where} header ${header}`, 'new header');
  }
  if (old.contentType && !next.contentType) {
    report('breaking', 'response-body-removed', `${where} body`, 'response body removed; clients parsing it break');
    return;
  }
  if (!old.contentType && next.contentType) {
    report('non-breaking', 'response-body-added', `${where} body`, `now has a ${next.contentType} body`);
    return;
  }
  if (old.contentType !== next.contentType) {
    report('breaking', 'response-media-type-changed', `${where} body`, `media type ${old.contentType} → ${next.contentType}; clients parse the old one`);
  }
  if (old.schema && next.schema) diffSchema({ oldSpec, newSpec, direction: 'response', where: `${where} body`, report }, old.schema, next.schema);
}
