// Phase "examples": every request example of every operation is replayed (path parameters filled
// with the caller's real resources) and every response gets the standard checks.
import { jsonAt, objectOrEmpty, stringOrUndefined } from '../../specModel/index.js';
import { PhaseRecorder } from '../checks.js';
import { dataAt, send, type ProbeRequest } from '../httpProbe.js';
import { createTripPlan, exampleRequest, pathFor, sendChecked, type RunContext } from '../runContext.js';

function queryExamples(ctx: RunContext, operationId: string): Record<string, string> {
  const op = ctx.spec.operation(operationId);
  const parameters = Object.values(objectOrEmpty(jsonAt(ctx.spec.openapi, 'components', 'parameters'))).map(objectOrEmpty);
  const examples: Record<string, string> = {};
  for (const p of op.parameters.filter((p) => p.in === 'query' && p.name !== 'cursor')) {
    const declared = parameters.find((d) => d.name === p.name && d.in === 'query' && jsonAt(d.schema, 'maximum') === jsonAt(p.schema, 'maximum'));
    const example = declared?.example;
    if (example !== undefined) examples[p.name] = typeof example === 'string' ? example : JSON.stringify(example);
  }
  return examples;
}

export async function runExamplesPhase(ctx: RunContext): Promise<PhaseRecorder> {
  const recorder = new PhaseRecorder('examples');
  for (const op of ctx.spec.operations) {
    const requests: ProbeRequest[] = [];
    if (op.operationId === 'logout') {
      // Logging out ends a session: never the runner's own.
      if (ctx.options.login !== 'dev') continue;
      const login = ctx.spec.operation('devLogin');
      const fresh = await send(ctx.target, {
        operationId: 'devLogin',
        method: 'POST',
        path: login.path,
        body: { email: `conformance-logout-${Date.now()}@example.com` },
      });
      requests.push({ ...exampleRequest(op, ctx.a), token: stringOrUndefined(dataAt(fresh, 'accessToken')) ?? null });
    } else if (op.method === 'delete' && op.parameters.some((p) => p.name === 'tripPlanId')) {
      const disposable = await createTripPlan(ctx, ctx.a.token);
      requests.push({ ...exampleRequest(op, ctx.a), path: pathFor(op, disposable) });
    } else if (op.body && op.body.examples.length > 0) {
      for (const example of op.body.examples) {
        const body = example.value as Record<string, unknown>;
        requests.push({
          ...exampleRequest(op, ctx.a),
          body: body && typeof body === 'object' && 'chatRoomId' in body ? { ...body, chatRoomId: ctx.a.chatRoomId } : body,
        });
      }
    } else {
      requests.push({ ...exampleRequest(op, ctx.a), query: queryExamples(ctx, op.operationId) });
    }
    for (const request of requests) {
      await sendChecked(ctx, recorder, request);
    }
  }
  return recorder;
}
