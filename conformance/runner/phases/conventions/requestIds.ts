// The caller's `X-Request-Id` (openapi.yaml, components.parameters.RequestId): a valid one is echoed
// in the response's `X-Request-Id`, on an error answer too; an invalid one is replaced by one the
// server generates ("a request never fails because of it"), so the answer is the same as with a
// valid one and its header is not the value sent. The header's own schema is the every-response
// check header_valid's to judge.
import { jsonText, numberOrUndefined, resolveObject, type OperationFact } from '../../../specModel/index.js';
import type { PhaseRecorder } from '../../checks.js';
import { curlOf, type ProbeRequest } from '../../httpProbe.js';
import { exampleRequest, sendChecked, type RunContext } from '../../runContext.js';

const headerName = 'x-request-id';

/** A GET with no path parameter that takes X-Request-Id: asked with no other input, it answers as usual. */
const plainGet = (op: OperationFact) =>
  op.method === 'get' &&
  !op.parameters.some((p) => p.in === 'path' || (p.required && p.in !== 'header')) &&
  op.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === headerName);

export async function checkRequestIds(ctx: RunContext, recorder: PhaseRecorder): Promise<void> {
  const op = ctx.spec.operations.find((o) => plainGet(o) && o.secured) ?? ctx.spec.operations.find(plainGet);
  if (!op) return;
  const parameter = op.parameters.find((p) => p.in === 'header' && p.name.toLowerCase() === headerName)!;
  const accepts = ctx.spec.schemaValidator('openapi', parameter.schema);
  const valid = `conformance-${ctx.options.seed}-${Date.now().toString(36)}`;
  if (!accepts(valid).valid) return;
  // An id whose validity cannot be decided in time is not sent as an invalid one.
  const refused = (id: string) => {
    const verdict = accepts(id);
    return !verdict.valid && verdict.undecided === undefined;
  };
  const ask = async (id: string, token: string | null) => {
    const request: ProbeRequest = { ...exampleRequest(op, ctx.a, token), headers: { [parameter.name]: id } };
    const response = await sendChecked(ctx, recorder, request);
    return { request, response, echoed: response.headers.get(headerName) };
  };

  const echo = async (token: string | null) => {
    const { request, response, echoed } = await ask(valid, token);
    const problem = `sent ${parameter.name} ${JSON.stringify(valid)}, a valid id: the ${response.status} answer must echo it, got ${jsonText(echoed)}`;
    recorder.check(echoed === valid, 'request_id', op.operationId, problem, curlOf(ctx.target, request));
    return response.status;
  };
  const status = await echo(ctx.a.token);
  if (op.secured) await echo(null);

  const longest = numberOrUndefined(resolveObject(ctx.spec.openapi, parameter.schema).maxLength) ?? 1000;
  for (const invalid of ['not a valid id!', 'x'.repeat(longest + 1)].filter(refused)) {
    const { request, response, echoed } = await ask(invalid, ctx.a.token);
    const shown = invalid.length > 40 ? `${invalid.slice(0, 20)}… (${invalid.length} characters)` : JSON.stringify(invalid);
    const problem =
      response.status !== status
        ? `sent the invalid ${parameter.name} ${shown}: expected the answer a valid one gets (${status}), since the server replaces it, got ${response.status}`
        : `sent the invalid ${parameter.name} ${shown}: expected a generated id in its place, got ${echoed === invalid ? 'it echoed' : 'none'}`;
    recorder.check(response.status === status && echoed !== null && echoed !== invalid, 'request_id', op.operationId, problem, curlOf(ctx.target, request));
  }
}
