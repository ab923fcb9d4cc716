// The real-time half of the mock: after `startTripPlanGeneration` it streams the documented
// sequence of asyncapi.yaml built from its message examples, for the started plan (ids
// substituted, timestamps now): per example day, schedule DAILY_PLAN_GENERATED, then the day's
// summary on chat as CHAT chunks and the full text; then chat COMPLETED. A cancel (or delete) ends
// a run with CANCELLED; an edit (an HTTP swap, or a chat message the service's offline agent reads
// as an edit) is announced as the service announces one: schedule UPDATE_STARTED and UPDATED, chat
// UPDATED, and a chat edit is confirmed in chunks, then in full; any other chat message is answered
// with the example answer. The mock has no plans: plan N's chat room is N. Each start is a
// generation run of the plan's logs, as in the service: a new epoch, ended by its COMPLETED or
// CANCELLED; asked for (x-mock-fault: new-epoch-after), the run is taken over by a new attempt
// after some messages, as when another instance takes over a run: a new epoch past offset 1.
import { abortableDelay, chunkText, type Logger, type Publishers, type RunPublishers } from '../../src/index.js';
import type { AsyncExamples } from './asyncExamples.js';

export interface MockGeneration {
  /** plays the sequence of plan `tripPlanId` unless it is already playing */
  start(tripPlanId: number, faults?: { newEpochAfter?: number }): void;
  /** ends a playing run with CANCELLED */
  cancel(tripPlanId: number): void;
  /** an HTTP swap on a day: UPDATE_STARTED and UPDATED on the schedule channel, UPDATED on the chat */
  swapped(tripPlanId: number, chatRoomId: number): void;
  /** streams the answer to a chat message: the edit's announcement and confirmation, or the example answer */
  answer(chatRoomId: number, content: string): void;
  isPlaying(tripPlanId: number): boolean;
  /** resolves when nothing is playing (tests, shutdown) */
  idle(): Promise<void>;
  stop(): void;
}

/** Same chunk size as the service's chat answers (src/chats/chatService.ts). */
const CHUNK = 60;

interface Run {
  abort: AbortController;
  done: Promise<void>;
  /** the attempt writing now (a new one after a takeover) */
  out: RunPublishers;
}

export function createMockGeneration(deps: {
  publishers: Publishers;
  examples: AsyncExamples;
  memberId: number;
  delayMs: number;
  clock: () => number;
  log: Logger;
  /** whether a chat message asks for an edit of the plan */
  isEdit(content: string): Promise<boolean>;
}): MockGeneration {
  const { publishers, examples, memberId } = deps;
  const runs = new Map<number, Run>();
  /** streams outside a run (chat answers, the CANCELLED after a run), for idle() */
  const others = new Set<Promise<void>>();
  const track = (stream: Promise<void>) => {
    const tracked: Promise<void> = stream.finally(() => others.delete(tracked));
    others.add(tracked);
  };
  const now = () => new Date(deps.clock()).toISOString();
  type ChatMessage = (typeof examples)['completed'];
  /** sends a chat example (text `message`, timestamp now) outside a run, or as a message of `run` */
  const chat = (chatRoomId: number, template: ChatMessage, message = template.message, run?: Pick<Run, 'out'>) => {
    const payload: ChatMessage = { ...template, message, timestamp: now() };
    if (run) run.out.chat(payload);
    else publishers.chat(memberId, chatRoomId, payload);
  };

  /** The documented chunk first when the text starts with it (as in the examples), then chunks of the rest. */
  const chunksOf = (text: string): string[] =>
    text.startsWith(examples.chatChunk.message) && text !== examples.chatChunk.message
      ? [examples.chatChunk.message, ...chunkText(text.slice(examples.chatChunk.message.length), CHUNK)]
      : chunkText(text, CHUNK);

  /** Steps of a stream, each published after the delay; stops when the signal aborts. `played(n)` follows step n. */
  async function play(steps: (() => void)[], signal: AbortSignal, played?: (count: number) => void): Promise<void> {
    // Never before the HTTP answer that started it has been handed back.
    await new Promise((resolve) => setImmediate(resolve));
    for (const [index, step] of steps.entries()) {
      await abortableDelay(deps.delayMs, signal);
      step();
      played?.(index + 1);
    }
  }

  function streamText(chatRoomId: number, text: string, run?: Pick<Run, 'out'>): (() => void)[] {
    const full = examples.chatTexts[0] ?? { ...examples.chatChunk, isComplete: true };
    return [...chunksOf(text).map((chunk) => () => chat(chatRoomId, examples.chatChunk, chunk, run)), () => chat(chatRoomId, full, text, run)];
  }

  function generationSteps(tripPlanId: number, run: Pick<Run, 'out'>): (() => void)[] {
    const chatRoomId = tripPlanId;
    return [
      // A day's summary is its description, as in the examples (chatFinal repeats dailyPlanGenerated's).
      ...examples.days.flatMap((day) => [() => run.out.schedule({ ...day, tripPlanId }), ...streamText(chatRoomId, day.dailyPlan.description, run)]),
      () => chat(chatRoomId, examples.completed, undefined, run),
    ];
  }

  /** The announcement of an edit (trips/dayEditAnnouncement.ts in the service), with the example day. */
  function editSteps(tripPlanId: number, chatRoomId: number): (() => void)[] {
    return [
      () => publishers.schedule(memberId, tripPlanId, { ...examples.updateStarted, tripPlanId }),
      () => publishers.schedule(memberId, tripPlanId, { ...examples.scheduleUpdated, tripPlanId }),
      () => chat(chatRoomId, examples.chatUpdated),
    ];
  }

  const logFailure = (what: string) => (error: unknown) => {
    if (!(error instanceof Error && error.name === 'AbortError')) deps.log.error({ err: error }, `mock ${what} failed`);
  };

  /** The example answer to a chat message that is not an edit: the full CHAT text that is no day's summary. */
  const exampleAnswer = () =>
    examples.chatTexts.find((t) => !examples.days.some((d) => d.dailyPlan.description === t.message))?.message ?? examples.chatTexts[0]?.message;

  return {
    start(tripPlanId, faults = {}) {
      if (runs.has(tripPlanId)) return;
      const plan = { memberId, tripPlanId, chatRoomId: tripPlanId };
      const run: Run = { abort: new AbortController(), done: Promise.resolve(), out: publishers.startRun(plan) };
      const takeOver = (count: number) => {
        if (count === faults.newEpochAfter) run.out = publishers.forRun(plan, { ...run.out.token, attempt: run.out.token.attempt + 1 });
      };
      run.done = play(generationSteps(tripPlanId, run), run.abort.signal, takeOver)
        .catch(logFailure('generation'))
        .finally(() => runs.delete(tripPlanId));
      runs.set(tripPlanId, run);
    },
    cancel(tripPlanId) {
      const run = runs.get(tripPlanId);
      if (!run) return;
      run.abort.abort(new DOMException('cancelled', 'AbortError'));
      track(run.done.then(() => chat(tripPlanId, examples.cancelled, undefined, run)));
    },
    swapped(tripPlanId, chatRoomId) {
      for (const step of editSteps(tripPlanId, chatRoomId)) step();
    },
    answer(chatRoomId, content) {
      const steps = async () => {
        if (await deps.isEdit(content)) return [...editSteps(chatRoomId, chatRoomId), ...streamText(chatRoomId, examples.chatUpdated.message)];
        const text = exampleAnswer();
        return text === undefined ? [] : streamText(chatRoomId, text);
      };
      track(
        steps()
          .then((answer) => play(answer, new AbortController().signal))
          .catch(logFailure('chat answer')),
      );
    },
    isPlaying: (tripPlanId) => runs.has(tripPlanId),
    async idle() {
      while (runs.size > 0 || others.size > 0) await Promise.all([...[...runs.values()].map((r) => r.done), ...others]);
    },
    stop() {
      for (const run of runs.values()) run.abort.abort(new DOMException('stopped', 'AbortError'));
    },
  };
}
