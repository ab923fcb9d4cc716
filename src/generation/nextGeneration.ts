// Which waiting generation starts when a slot frees: the fairness rule of openapi.yaml
// (startTripPlanGeneration, "Queue and fairness"). Pure: the claim (generationLeases.ts) applies it
// to the waiting jobs and running counts it reads from the database.
export interface WaitingGeneration {
  tripPlanId: number;
  memberId: number;
}

export interface GenerationSlots {
  /** runs in progress per member */
  runningByMember: ReadonlyMap<number, number>;
  /** plans with a run still in progress (a restarted plan waits until its aborted run has unwound) */
  runningPlans: ReadonlySet<number>;
  /** per member, when its latest run started (any increasing number); absent: never started one */
  lastStartedByMember: ReadonlyMap<number, number>;
  /** GENERATION_CONCURRENCY_PER_USER */
  perMemberLimit: number;
}

/**
 * The index in `waiting` (oldest first) of the generation to start next, or -1 when none may start.
 * Only members under `perMemberLimit` qualify; among them the member whose latest run started
 * longest ago goes first (never started beats any start; ties go to the member whose job has
 * waited longest), which makes members take turns. A member's own jobs start oldest first.
 */
export function pickNextGeneration(waiting: readonly WaitingGeneration[], slots: GenerationSlots): number {
  let best = -1;
  let bestLastStart = Infinity;
  const seen = new Set<number>();
  for (let i = 0; i < waiting.length; i++) {
    const { tripPlanId, memberId } = waiting[i]!;
    if (seen.has(memberId) || slots.runningPlans.has(tripPlanId)) continue;
    seen.add(memberId);
    if ((slots.runningByMember.get(memberId) ?? 0) >= slots.perMemberLimit) continue;
    const lastStart = slots.lastStartedByMember.get(memberId) ?? -Infinity;
    if (lastStart < bestLastStart) {
      best = i;
      bestLastStart = lastStart;
    }
  }
  return best;
}
