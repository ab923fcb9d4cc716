// Concurrent writes across instances (openapi.yaml, swapScheduledPlaces: edits of one plan sent at
// the same time, through any instance, are applied one after the other): in each round two swaps
// of the plan's stops go to two instances at once, and the days read afterwards, from yet another
// instance, must be what applying the acknowledged swaps (204) one after the other in some order
// makes of the days before: no acknowledged edit lost, none applied twice. A refused swap (a
// documented 4xx) must have changed nothing.
import { arrayOrEmpty, jsonAt, type Json } from '../../../specModel/index.js';
import type { PhaseRecorder } from '../../checks.js';
import { curlOf, type HttpTarget, type ProbeRequest } from '../../httpProbe.js';
import { pathFor, sendChecked, type Instance, type RunContext } from '../../runContext.js';

interface Swap {
  dayNumber: number;
  a: number;
  b: number;
}

/** Place ids by visit order, per day number. */
type Days = Map<number, Json[]>;

const ROUNDS = 4;

const describeSwap = (s: Swap) => `day ${s.dayNumber} stops ${s.a}↔${s.b}`;

function daysOf(data: Json | undefined): Days {
  return new Map(
    arrayOrEmpty(data).map((day) => [
      Number(jsonAt(day, 'dayNumber')),
      [...arrayOrEmpty(jsonAt(day, 'scheduledPlaces'))]
        .sort((x, y) => Number(jsonAt(x, 'visitOrder')) - Number(jsonAt(y, 'visitOrder')))
        .map((stop) => jsonAt(stop, 'place', 'id') ?? null),
    ]),
  );
}

function applied(days: Days, swap: Swap): Days {
  const next = new Map([...days].map(([n, stops]) => [n, [...stops]]));
  const stops = next.get(swap.dayNumber);
  if (stops) [stops[swap.a - 1], stops[swap.b - 1]] = [stops[swap.b - 1]!, stops[swap.a - 1]!];
  return next;
}

const same = (x: Days, y: Days) => JSON.stringify([...x].sort()) === JSON.stringify([...y].sort());

/** The swaps a plan's days allow: the first stops of each day, pairs that do not overlap first. */
function swapsOf(days: Days): Swap[] {
  const swaps: Swap[] = [];
  for (const [dayNumber, stops] of [...days].sort(([x], [y]) => x - y)) {
    if (stops.length >= 2) swaps.push({ dayNumber, a: 1, b: 2 });
    if (stops.length >= 4) swaps.push({ dayNumber, a: 3, b: 4 });
  }
  return swaps;
}

export async function checkConcurrentEdits(
  ctx: RunContext,
  recorder: PhaseRecorder,
  instances: Instance[],
  plan: { tripPlanId: number; chatRoomId: number },
): Promise<void> {
  const targetOf = (i: number): HttpTarget => ({ ...ctx.target, baseUrl: instances[i % instances.length]!.baseUrl });
  const member = { ...ctx.a, ...plan };
  const list = ctx.spec.operation('listDailyPlans');
  const swapOp = ctx.spec.operation('swapScheduledPlaces');
  const readDays = async (i: number): Promise<[ProbeRequest, Days]> => {
    const request: ProbeRequest = { operationId: list.operationId, method: 'GET', path: pathFor(list, member), token: ctx.a.token };
    return [request, daysOf(jsonAt((await sendChecked({ ...ctx, target: targetOf(i) }, recorder, request)).json, 'data'))];
  };
  const [firstRead, first] = await readDays(0);
  const swaps = swapsOf(first);
  if (
    !recorder.check(
      swaps.length > 0,
      'concurrent_writes',
      'swapScheduledPlaces',
      'the generated plan has no day with two stops to swap',
      curlOf(targetOf(0), firstRead),
    )
  )
    return;
  for (let round = 0; round < ROUNDS; round++) {
    const [, before] = await readDays(round);
    const pair = [swaps[(2 * round) % swaps.length]!, swaps[(2 * round + 1) % swaps.length]!];
    const requests = pair.map((s): ProbeRequest => ({
      operationId: swapOp.operationId,
      method: swapOp.method.toUpperCase(),
      path: pathFor(swapOp, member, { dayNumber: s.dayNumber }),
      token: ctx.a.token,
      body: { chatRoomId: plan.chatRoomId, visitOrderA: s.a, visitOrderB: s.b },
    }));
    const responses = await Promise.all(requests.map((request, i) => sendChecked({ ...ctx, target: targetOf(i) }, recorder, request)));
    const acknowledged = pair.filter((_, i) => responses[i]!.status === 204);
    const [afterRead, after] = await readDays(round + 2);
    const orders = acknowledged.length === 2 ? [acknowledged, [...acknowledged].reverse()] : [acknowledged];
    const explained = orders.some((order) => same(order.reduce(applied, before), after));
    const sent = pair.map((s, i) => `${describeSwap(s)} via instance ${(i % instances.length) + 1} answered ${responses[i]!.status}`).join(', ');
    recorder.check(
      explained,
      'concurrent_writes',
      'swapScheduledPlaces',
      `round ${round + 1}: ${sent}; the days read from instance ${((round + 2) % instances.length) + 1} afterwards are not the days before with the acknowledged swaps applied one after the other (an acknowledged edit lost, or a refused one applied)`,
      `${requests.map((r, i) => curlOf(targetOf(i), r)).join(' & ')}; then ${curlOf(targetOf(round + 2), afterRead)}`,
    );
  }
}
