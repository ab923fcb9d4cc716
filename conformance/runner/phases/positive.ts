// Phase "positive": requests generated from the schemas (fast-check, seeded). A schema-valid request
// must get a documented status — a 2xx, or a 4xx the spec documents for the operation (e.g. 404
// for an id that does not exist) — never a 5xx, never "malformed body" (COMMON002), always with a
// valid body.
import fc from 'fast-check';
import { resolveObject, type OperationFact } from '../../specModel/index.js';
import { PhaseRecorder } from '../checks.js';
import { curlOf, dataAt, type ProbeRequest } from '../httpProbe.js';
import { createTripPlan, pathFor, sendChecked, type RunContext } from '../runContext.js';
import { schemaArbitrary } from '../schemaArbitrary.js';

/** Operations whose effects would break the run (they end the caller's session). */
const skipped = new Set(['logout']);

export function requestArbitrary(ctx: RunContext, op: OperationFact, idPool: number[]): fc.Arbitrary<ProbeRequest> {
  const resolve = (ref: string) => resolveObject(ctx.spec.openapi, { $ref: ref });
  const options = { resolve, idPool, matches: ctx.spec.matchesPattern };
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const pathArb = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, schemaArbitrary(p.schema, options)])));
  const queryArb = fc.record(Object.fromEntries(queryParams.map((p) => [p.name, schemaArbitrary(p.schema, options)])), { requiredKeys: [] });
  const bodyArb = op.body ? schemaArbitrary(op.body.schema, options) : fc.constant(undefined);
  const validBody = op.body ? ctx.spec.schemaValidator('openapi', op.body.schema) : null;
  return (
    fc
      .tuple(pathArb, queryArb, bodyArb)
      // A body whose validity cannot be decided in time is sent: it was generated to be valid.
      .filter(([, , body]) => {
        const verdict = validBody?.(structuredClone(body));
        return !verdict || verdict.valid || verdict.undecided !== undefined;
      })
      .map(([path, query, body]) => ({
        operationId: op.operationId,
        method: op.method.toUpperCase(),
        path: pathFor(op, ctx.a, path as Record<string, string | number>),
        query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
        token: op.secured ? ctx.a.token : null,
        body,
        seed: ctx.options.seed,
      }))
  );
}

export async function runPositivePhase(ctx: RunContext): Promise<PhaseRecorder> {
  const recorder = new PhaseRecorder('positive');
  const ownIds = [ctx.a.tripPlanId, ctx.a.chatRoomId];
  for (const [index, op] of ctx.spec.operations.entries()) {
    if (skipped.has(op.operationId)) continue;
    // Deletions get a disposable plan of their own, so the shared fixtures survive.
    const pool = op.method === 'delete' ? [(await createTripPlan(ctx, ctx.a.token)).tripPlanId] : ownIds;
    const samples = fc.sample(requestArbitrary(ctx, op, pool), { seed: ctx.options.seed + index, numRuns: ctx.options.maxExamples });
    for (const request of samples) {
      const response = await sendChecked(ctx, recorder, request);
      const malformed = response.status === 400 && dataAt(response, 'code') === 'COMMON002';
      recorder.check(
        !malformed,
        'status_documented',
        op.operationId,
        'a schema-valid JSON request was rejected as malformed (COMMON002)',
        curlOf(ctx.target, request),
      );
    }
  }
  return recorder;
}
