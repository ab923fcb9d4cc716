// Phase "stateful": a resource is followed across calls — create, read (also via Location), list,
// rename, start, wait for the generation, read the days, delete — and after the delete every
// operation on it must answer 404 (no use after free).
import { arrayOrEmpty, jsonAt, jsonText } from '../../specModel/index.js';
import { PhaseRecorder } from '../checks.js';
import { curlOf, dataAt, send, type ProbeRequest, type ProbeResponse } from '../httpProbe.js';
import { exampleRequest, pathFor, sendChecked, waitForGeneration, type RunContext } from '../runContext.js';

export async function runStatefulPhase(ctx: RunContext): Promise<PhaseRecorder> {
  const recorder = new PhaseRecorder('stateful');
  const call = async (operationId: string, patch: Partial<ProbeRequest> = {}, ids = plan): Promise<[ProbeRequest, ProbeResponse]> => {
    const op = ctx.spec.operation(operationId);
    const request = { ...exampleRequest(op, { ...ctx.a, ...ids }), ...patch };
    const response = await sendChecked(ctx, recorder, request);
    return [request, response];
  };
  const expect = (ok: boolean, target: string, message: string, request: ProbeRequest) =>
    recorder.check(ok, 'stateful_flow', target, message, curlOf(ctx.target, request));

  let plan = { tripPlanId: 0, chatRoomId: 0 };
  const [createRequest, created] = await call('createTripPlanSession', { body: ctx.tripExample });
  if (!expect(created.status === 201, 'createTripPlanSession', `create answered ${created.status}`, createRequest)) return recorder;
  plan = { tripPlanId: Number(dataAt(created, 'tripPlanId')), chatRoomId: Number(dataAt(created, 'chatRoomId')) };

  const location = created.headers.get('location');
  if (location) {
    const request: ProbeRequest = { operationId: 'getTripPlan', method: 'GET', path: location, token: ctx.a.token };
    const res = await send(ctx.target, request);
    recorder.report.requests++;
    expect(
      res.status === 200 && dataAt(res, 'tripPlanId') === plan.tripPlanId,
      'createTripPlanSession',
      `Location ${location} does not lead to the new plan (${res.status})`,
      request,
    );
  }
  const [readRequest, read] = await call('getTripPlan');
  for (const field of ['region', 'startDate', 'duration', 'peopleCount'] as const) {
    expect(
      dataAt(read, field) === ctx.tripExample[field],
      'getTripPlan',
      `${field} is ${JSON.stringify(dataAt(read, field))}, created with ${JSON.stringify(ctx.tripExample[field])}`,
      readRequest,
    );
  }
  const [listRequest, list] = await call('listTripPlans', { query: { size: '100' } });
  expect(
    arrayOrEmpty(dataAt(list, 'content')).some((p) => jsonAt(p, 'id') === plan.tripPlanId),
    'listTripPlans',
    'the new plan is not in the first page of the list',
    listRequest,
  );
  const title = `Conformance ${ctx.options.seed}`;
  await call('updateTripPlanTitle', { body: { title } });
  const [renamedRequest, renamed] = await call('getTripPlan');
  expect(
    dataAt(renamed, 'title') === title,
    'updateTripPlanTitle',
    `title is ${JSON.stringify(dataAt(renamed, 'title'))} after renaming to ${title}`,
    renamedRequest,
  );

  const [startRequest, started] = await call('startTripPlanGeneration');
  if (expect(started.status === 200, 'startTripPlanGeneration', `start answered ${started.status}`, startRequest)) {
    const status = await waitForGeneration(ctx, ctx.a.token, plan.tripPlanId);
    expect(status === 'COMPLETED', 'startTripPlanGeneration', `generation ended as ${jsonText(status)}`, startRequest);
    const [daysRequest, days] = await call('listDailyPlans');
    expect(
      arrayOrEmpty(dataAt(days)).length === ctx.tripExample.duration,
      'listDailyPlans',
      `${arrayOrEmpty(dataAt(days)).length} days saved for a ${jsonText(ctx.tripExample.duration)}-day trip`,
      daysRequest,
    );
  }

  const [deleteRequest, deleted] = await call('deleteTripPlan');
  if (!expect(deleted.status === 204, 'deleteTripPlan', `delete answered ${deleted.status}`, deleteRequest)) return recorder;
  // Use after free: nothing may still work on the deleted plan or its chat room.
  for (const op of ctx.spec.operations.filter((o) => o.parameters.some((p) => p.name === 'tripPlanId' || p.name === 'chatRoomId'))) {
    const request = { ...exampleRequest(op, { ...ctx.a, ...plan }), path: pathFor(op, plan) };
    const response = await sendChecked(ctx, recorder, request);
    recorder.check(
      response.status === 404,
      'use_after_free',
      op.operationId,
      `after delete: expected 404, got ${response.status}`,
      curlOf(ctx.target, request),
    );
  }
  return recorder;
}
