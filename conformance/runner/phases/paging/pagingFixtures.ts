// The items a list is walked over, made through the public API before the walk: three trip plans of
// the second member (created one after the other; two share a start date, so the tie-breaker
// decides between them, and the first created starts last, so creation order and start date
// order differ), or a chat room of a plan of its own whose generation wrote the day summaries into
// it. A list of something else is walked over what there is.
import { dataAt } from '../../httpProbe.js';
import type { PhaseRecorder } from '../../checks.js';
import { createTripPlan, exampleRequest, pathFor, sendChecked, waitForGeneration, type RunContext } from '../../runContext.js';
import { jsonText, type OperationFact } from '../../../specModel/index.js';

export interface PagingFixture {
  /** the list's concrete path */
  path: string;
  token: string;
  /** the cursor values of the items the runner created, in the order it created them */
  created: number[];
}

/** `date` (YYYY-MM-DD) moved by `days`. */
const dayAfter = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

async function tripPlans(ctx: RunContext, recorder: PhaseRecorder, op: OperationFact): Promise<PagingFixture> {
  const create = ctx.spec.operation('createTripPlanSession');
  const start = jsonText(ctx.tripExample.startDate);
  const created: number[] = [];
  for (const startDate of [start, dayAfter(start, -1), dayAfter(start, -1)]) {
    const request = { ...exampleRequest(create, ctx.b), body: { ...ctx.tripExample, startDate } };
    const id = dataAt(await sendChecked(ctx, recorder, request), 'tripPlanId');
    if (typeof id === 'number') created.push(id);
  }
  return { path: pathFor(op, ctx.b), token: ctx.b.token, created };
}

async function generatedChat(ctx: RunContext, recorder: PhaseRecorder, op: OperationFact): Promise<PagingFixture> {
  const plan = await createTripPlan(ctx, ctx.b.token);
  const start = ctx.spec.operation('startTripPlanGeneration');
  const started = await sendChecked(ctx, recorder, { ...exampleRequest(start, { ...ctx.b, ...plan }), path: pathFor(start, plan) });
  if (started.status === 200) await waitForGeneration(ctx, ctx.b.token, plan.tripPlanId);
  return { path: pathFor(op, plan), token: ctx.b.token, created: [] };
}

/** Makes the items of `op`'s list; null when the runner cannot fill its path. */
export async function prepareItems(ctx: RunContext, recorder: PhaseRecorder, op: OperationFact): Promise<PagingFixture | null> {
  const pathParameters = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
  if (op.path === ctx.spec.operation('createTripPlanSession').path) return tripPlans(ctx, recorder, op);
  if (pathParameters.length === 1 && pathParameters[0] === 'chatRoomId') return generatedChat(ctx, recorder, op);
  return pathParameters.length === 0 ? { path: op.path, token: ctx.b.token, created: [] } : null;
}
