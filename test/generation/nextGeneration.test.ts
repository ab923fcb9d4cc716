// The fairness rule of the generation queue (openapi.yaml, startTripPlanGeneration, "Queue and
// fairness") as a pure function: members under their limit take turns, oldest start first.
import { describe, expect, it } from 'vitest';
import { pickNextGeneration, type GenerationSlots, type WaitingGeneration } from '../../src/generation/nextGeneration.js';

const job = (memberId: number, tripPlanId: number): WaitingGeneration => ({ memberId, tripPlanId });

/** Starts jobs one at a time (each finishing before the next starts) and returns their plan ids. */
function drain(waiting: WaitingGeneration[], perMemberLimit = 2): number[] {
  const queue = [...waiting];
  const lastStartedByMember = new Map<number, number>();
  const order: number[] = [];
  for (let tick = 1; queue.length > 0; tick++) {
    const next = pickNextGeneration(queue, { runningByMember: new Map(), runningPlans: new Set(), lastStartedByMember, perMemberLimit });
    const [picked] = queue.splice(next, 1);
    lastStartedByMember.set(picked!.memberId, tick);
    order.push(picked!.tripPlanId);
  }
  return order;
}

const slots = (overrides: Partial<GenerationSlots> = {}): GenerationSlots => ({
  runningByMember: new Map(),
  runningPlans: new Set(),
  lastStartedByMember: new Map(),
  perMemberLimit: 2,
  ...overrides,
});

describe('pickNextGeneration', () => {
  it('members take turns: a member with one plan waits for one run of each other member, not for all of them', () => {
    const twenty = Array.from({ length: 20 }, (_, i) => job(1, 100 + i));
    expect(drain([...twenty, job(2, 200)]).slice(0, 3)).toEqual([100, 200, 101]);
  });

  it('round-robin between three members, each member oldest plan first', () => {
    const waiting = [job(1, 11), job(1, 12), job(1, 13), job(2, 21), job(2, 22), job(3, 31)];
    expect(drain(waiting)).toEqual([11, 21, 31, 12, 22, 13]);
  });

  it('a member at GENERATION_CONCURRENCY_PER_USER is skipped; none left means nothing starts', () => {
    const waiting = [job(1, 11), job(2, 21)];
    expect(pickNextGeneration(waiting, slots({ runningByMember: new Map([[1, 2]]) }))).toBe(1);
    expect(
      pickNextGeneration(
        waiting,
        slots({
          runningByMember: new Map([
            [1, 2],
            [2, 2],
          ]),
        }),
      ),
    ).toBe(-1);
    expect(pickNextGeneration(waiting, slots({ runningByMember: new Map([[1, 1]]), perMemberLimit: 1 }))).toBe(1);
  });

  it('the member whose latest run started longest ago goes first; one that never started goes before both', () => {
    const waiting = [job(1, 11), job(2, 21), job(3, 31)];
    expect(
      pickNextGeneration(
        waiting,
        slots({
          lastStartedByMember: new Map([
            [1, 5],
            [2, 3],
            [3, 4],
          ]),
        }),
      ),
    ).toBe(1);
    expect(
      pickNextGeneration(
        waiting,
        slots({
          lastStartedByMember: new Map([
            [1, 5],
            [2, 3],
          ]),
        }),
      ),
    ).toBe(2);
  });

  it('a restarted plan waits while its previous run unwinds; the member’s next plan may go meanwhile', () => {
    const waiting = [job(1, 11), job(1, 12)];
    expect(pickNextGeneration(waiting, slots({ runningPlans: new Set([11]), runningByMember: new Map([[1, 1]]) }))).toBe(1);
    expect(pickNextGeneration([job(1, 11)], slots({ runningPlans: new Set([11]), runningByMember: new Map([[1, 1]]) }))).toBe(-1);
  });

  it('an empty queue starts nothing', () => {
    expect(pickNextGeneration([], slots())).toBe(-1);
  });
});
