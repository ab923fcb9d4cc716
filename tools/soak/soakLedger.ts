// What the soak's users were told and saw, and what must therefore hold once it is over: every
// acknowledged write is there (a created plan exists, a swap or chat edit is in the saved day, a
// deleted plan is gone), no plan is left GENERATING, each plan's days are 1..n once each, and each
// subscriber's messages pass the replay rules (continuity.ts).
import type { components } from '../../generated/openapi.js';
import { judgeWatcher, traceOf, type Continuity } from './continuity.js';
import type { SoakHttp } from './soakHttp.js';
import type { StreamWatcher, WatcherKind } from './streamWatcher.js';

type DailyPlan = components['schemas']['DailyPlanResponse'];
type TripPlanDetail = components['schemas']['TripPlanDetailResponse'];
type ChatMessagePage = components['schemas']['ChatMessagePageResponse'];

export interface SoakPlan {
  tripPlanId: number;
  chatRoomId: number;
  token: () => string;
  duration: number;
  /** the start was acknowledged (200) */
  started: boolean;
  /** the delete was acknowledged (204), or sent without an answer (either outcome is right) */
  deleted: boolean | 'unknown';
  watchers: StreamWatcher[];
}

export interface SoakOutcome {
  acknowledged: { creates: number; starts: number; swaps: number; chatEdits: number; deletes: number };
  /** acknowledged writes not found afterwards, with a sample of each */
  missingWrites: number;
  missingSamples: string[];
  /** edits refused with a documented 4xx (not a defect: the client was told) */
  refusedEdits: number;
  plansStuck: number;
  plansByStatus: Record<string, number>;
  daysMissing: number;
  daysDuplicated: number;
  /** days of a completed plan whose summary is not in the chat history exactly once */
  summariesMissing: number;
  summariesDuplicated: number;
  subscribers: Record<WatcherKind, Omit<Continuity, 'notes'> & { count: number; unfinished: number }>;
  /** the first few subscribers that broke a rule: what was wrong and everything they saw */
  subscriberSamples: { tripPlanId: number; kind: WatcherKind; notes: string[]; trace: string[] }[];
}

export interface SoakLedger {
  readonly plans: SoakPlan[];
  readonly outcome: SoakOutcome;
  /** an acknowledged write that a later read did not show */
  missing(sample: string): void;
  /** reads every plan back once the soak is over and fills in the outcome */
  verify(http: SoakHttp, pick: () => string): Promise<void>;
}

const emptyContinuity = () => ({ count: 0, unfinished: 0, lost: 0, duplicated: 0, outOfOrder: 0, falseRecovered: 0, signals: 0 });

function data<T>(body: unknown): T {
  return (body as { data: T }).data;
}

export function createSoakLedger(): SoakLedger {
  const plans: SoakPlan[] = [];
  const outcome: SoakOutcome = {
    acknowledged: { creates: 0, starts: 0, swaps: 0, chatEdits: 0, deletes: 0 },
    missingWrites: 0,
    missingSamples: [],
    refusedEdits: 0,
    plansStuck: 0,
    plansByStatus: {},
    daysMissing: 0,
    daysDuplicated: 0,
    summariesMissing: 0,
    summariesDuplicated: 0,
    subscribers: { live: emptyContinuity(), 'late replay': emptyContinuity(), resumed: emptyContinuity() },
    subscriberSamples: [],
  };

  function missing(sample: string): void {
    outcome.missingWrites++;
    if (outcome.missingSamples.length < 10) outcome.missingSamples.push(sample);
  }

  /** The offline planner's summary of day N is its description, which starts with "## Day N". */
  async function verifySummaries(http: SoakHttp, pick: () => string, plan: SoakPlan): Promise<void> {
    const summaries = new Map<number, number>();
    let cursor: number | null = null;
    do {
      const page = await http.call(pick, 'GET', `/api/v1/chats/${plan.chatRoomId}/messages?size=100${cursor ? `&cursor=${cursor}` : ''}`, plan.token());
      if (!page || page.status !== 200) return missing(`plan ${plan.tripPlanId}: its chat history could not be read back`);
      const { content, nextCursor, hasNext } = data<ChatMessagePage>(page.body);
      for (const message of content) {
        const day = message.messageType === 'ASSISTANT' ? /^## Day (\d+)\b/.exec(message.content)?.[1] : undefined;
        if (day) summaries.set(Number(day), (summaries.get(Number(day)) ?? 0) + 1);
      }
      cursor = hasNext ? nextCursor : null;
    } while (cursor !== null);
    for (let day = 1; day <= plan.duration; day++) {
      const count = summaries.get(day) ?? 0;
      if (count === 0) outcome.summariesMissing++;
      if (count > 1) outcome.summariesDuplicated += count - 1;
    }
  }

  async function verifyPlan(http: SoakHttp, pick: () => string, plan: SoakPlan): Promise<void> {
    const got = await http.call(pick, 'GET', `/api/v1/trips/${plan.tripPlanId}`, plan.token());
    if (!got) return missing(`plan ${plan.tripPlanId}: could not be read back`);
    if (plan.deleted === 'unknown' && got.status === 404) return;
    if (plan.deleted === true) {
      if (got.status !== 404) missing(`plan ${plan.tripPlanId}: deleted (204) but GET answered ${got.status}`);
      return;
    }
    if (got.status !== 200) return missing(`plan ${plan.tripPlanId}: created (201) but GET answered ${got.status}`);
    const detail = data<TripPlanDetail>(got.body);
    outcome.plansByStatus[detail.generationStatus] = (outcome.plansByStatus[detail.generationStatus] ?? 0) + 1;
    if (detail.generationStatus === 'GENERATING') outcome.plansStuck++;
    const days = await http.call(pick, 'GET', `/api/v1/trips/daily-plans/${plan.tripPlanId}`, plan.token());
    if (!days || days.status !== 200) return missing(`plan ${plan.tripPlanId}: its days could not be read back`);
    const numbers = data<DailyPlan[]>(days.body).map((d) => d.dayNumber);
    const distinct = new Set(numbers);
    outcome.daysDuplicated += numbers.length - distinct.size;
    // A completed plan has every day; any other has a prefix 1..k of them.
    const expected = detail.generationStatus === 'COMPLETED' ? plan.duration : Math.max(0, ...numbers);
    for (let day = 1; day <= expected; day++) if (!distinct.has(day)) outcome.daysMissing++;
    if (detail.generationStatus === 'COMPLETED') await verifySummaries(http, pick, plan);
    for (const watcher of plan.watchers) {
      const tally = outcome.subscribers[watcher.kind];
      tally.count++;
      // The run has ended by now (no plan is read back before they all have, or the soak's bound
      // passed): a subscriber that never saw its last message missed it, silently unless told.
      const judged = judgeWatcher(watcher, [...distinct]);
      if (!watcher.finished()) {
        tally.unfinished++;
        if (judged.signals === 0 && detail.generationStatus !== 'GENERATING') {
          judged.lost++;
          judged.notes.push(`never saw the run's last message (the plan is ${detail.generationStatus}), and nothing said so`);
        }
      }
      if (judged.notes.length > 0 && outcome.subscriberSamples.length < 40) {
        outcome.subscriberSamples.push({ tripPlanId: plan.tripPlanId, kind: watcher.kind, notes: judged.notes, trace: traceOf(watcher) });
      }
      tally.lost += judged.lost;
      tally.duplicated += judged.duplicated;
      tally.outOfOrder += judged.outOfOrder;
      tally.falseRecovered += judged.falseRecovered;
      tally.signals += judged.signals;
    }
  }

  return {
    plans,
    outcome,
    missing,
    async verify(http, pick) {
      const queue = [...plans];
      const workers = Array.from({ length: 8 }, async () => {
        for (let plan = queue.shift(); plan; plan = queue.shift()) await verifyPlan(http, pick, plan);
      });
      await Promise.all(workers);
    },
  };
}
