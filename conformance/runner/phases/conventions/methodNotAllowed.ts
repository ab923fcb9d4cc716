// A method a path of the spec does not have answers `405` with `Allow` listing the methods it has
// and an error envelope with the code of status 405 (openapi.yaml, the Conventions of the Trips
// tag: `405 COMMON405` with an `Allow` header). HEAD and OPTIONS are not tried: servers answer them
// for every path (HEAD as GET, OPTIONS for CORS) whatever the spec says. A path whose every
// operation the server may leave out (its 404 lists COMMON404, as dev-login's does) may answer
// `404 COMMON404` instead, and `Allow` need not list an operation the server may leave out.
import { jsonAt, jsonText, type OperationFact } from '../../../specModel/index.js';
import type { PhaseRecorder } from '../../checks.js';
import { curlOf, dataAt, excerpt, send, type ProbeRequest, type ProbeResponse } from '../../httpProbe.js';
import { pathFor, type RunContext } from '../../runContext.js';

const triedMethods = ['GET', 'PUT', 'POST', 'PATCH', 'DELETE'];

/** Whether the server may leave the operation out: its 404 is sent with COMMON404, "no such route". */
const mayBeLeftOut = (op: OperationFact) => op.responses.some((r) => r.status === 404 && (r.errorCodes ?? []).includes('COMMON404'));

function problemOf(ctx: RunContext, operations: OperationFact[], method: string, response: ProbeResponse): string | null {
  const documented = operations.map((op) => op.method.toUpperCase());
  const code = dataAt(response, 'code');
  if (response.status === 404 && code === 'COMMON404' && operations.every(mayBeLeftOut)) return null;
  const expectedList = documented.join(', ');
  if (response.status !== 405) return `${method}: expected 405 (Allow: ${expectedList}), got ${response.status}: ${excerpt(response, 200)}`;
  const allow = response.headers.get('allow');
  if (allow === null) return `${method}: 405 without an Allow header (expected Allow: ${expectedList})`;
  const listed = allow
    .split(',')
    .map((m) => m.trim().toUpperCase())
    .filter(Boolean);
  const required = operations.filter((op) => !mayBeLeftOut(op)).map((op) => op.method.toUpperCase());
  if (listed.some((m) => !documented.includes(m)) || required.some((m) => !listed.includes(m)))
    return `${method}: Allow is ${JSON.stringify(allow)}, expected the methods the spec has for this path: ${expectedList}`;
  const codes = ctx.spec.errorCodes.filter((c) => c.httpStatus === 405).map((c) => c.code);
  const schema = operations.flatMap((op) => op.responses).find((r) => r.status >= 400 && r.errorCodes !== null && r.schema !== null)?.schema;
  const verdict = schema ? ctx.spec.schemaValidator('openapi', schema)(response.json) : null;
  if (verdict && !verdict.valid)
    return `${method}: the 405 body is not an error envelope: ${verdict.undecided ?? verdict.problems.map((p) => `${p.instancePath || '/'} ${p.message}`).join('; ')}`;
  if (codes.length > 0 && !codes.includes(jsonText(code))) return `${method}: the 405 body has code ${jsonText(code)}, expected ${codes.join(' or ')}`;
  const status = jsonAt(response.json, 'status');
  return status === 405 ? null : `${method}: the 405 body's envelope says status ${jsonText(status)}`;
}

/** Every path of the spec, asked with each method it does not have. */
export async function checkMethodsNotAllowed(ctx: RunContext, recorder: PhaseRecorder): Promise<void> {
  const byPath = new Map<string, OperationFact[]>();
  for (const op of ctx.spec.operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  for (const [template, operations] of byPath) {
    const path = pathFor(operations[0]!, ctx.a);
    for (const method of triedMethods.filter((m) => !operations.some((op) => op.method.toUpperCase() === m))) {
      const request: ProbeRequest = { operationId: `${method} ${template}`, method, path, token: ctx.a.token };
      const response = await send(ctx.target, request);
      recorder.report.requests++;
      const replay = curlOf(ctx.target, request);
      const problem = problemOf(ctx, operations, method, response);
      recorder.check(problem === null, 'method_not_allowed', template, problem ?? '', replay);
      if (response.oversized !== undefined) recorder.check(false, 'response_size', template, `status ${response.status}: ${response.oversized}`, replay);
    }
  }
}
