// The real-time half of the mock: after `startTripPlanGeneration` it streams the documented
// sequence of asyncapi.yaml built from its message examples, for the started plan (ids
// substituted, timestamps now): per example day, schedule DAILY_PLAN_GENERATED, then the day's
// summary on chat as CHAT chunks and the full text; then chat COMPLETED. A cancel (or delete) ends
// a run with CANCELLED, a swap sends UPDATED on both channels, a chat message is answered with the
// example answer in chunks, then in full. The mock has no plans: plan N's chat room is N. Each
// start is a generation run of the plan's logs, as in the service: a new epoch, ended by its
// COMPLETED or CANCELLED.
import { abortableDelay, chunkText, type Logger, type Publishers, type RunPublishers } from '../../src/index.js';
import type { AsyncExamples } from './asyncExamples.js';

export interface MockGeneration {
  /** plays the sequence of plan `tripPlanId` unless it is already playing */
  start(tripPlanId: number): void;
  /** ends a playing run with CANCELLED */
  cancel(tripPlanId: number): void;
  /** an HTTP swap on a day: UPDATED on the schedule and chat channels */
  swapped(tripPlanId: number, chatRoomId: number): void;
  /** streams the example answer to a chat message */
  answer(chatRoomId: number): void;
  isPlaying(tripPlanId: number): boolean;
  /** resolves when nothing is playing (tests, shutdown) */
  idle(): Promise<void>;
  stop(): void;
}

/** Same chunk size as the service's chat answers (src/chats/chatService.ts). */
const CHUNK = 60;

export function createMockGeneration(deps: {
  publishers: Publishers;
  examples: AsyncExamples;
  memberId: number;
  delayMs: number;
  clock: () => number;
  log: Logger;
}): MockGeneration {
  const { publishers, examples, memberId } = deps;
  const runs = new Map<number, { abort: AbortController; done: Promise<void>; out: RunPublishers }>();
  /** streams outside a run (chat answers, the CANCELLED after a run), for idle() */
  const others = new Set<Promise<void>>();
  const track = (stream: Promise<void>) => {
    const tracked: Promise<void> = stream.finally(() => others.delete(tracked));
    others.add(tracked);
  };
  const now = () => new Date(deps.clock()).toISOString();
  type ChatMessage = (typeof examples)['completed'];
  /** sends a chat example (text `message`, timestamp now) outside a run, or as a message of `run` */
  const chat = (chatRoomId: number, template: ChatMessage, message = template.message, run?: RunPublishers) => {
    const payload: ChatMessage = { ...template, message, timestamp: now() };
    if (run) run.chat(payload);
    else publishers.chat(memberId, chatRoomId, payload);
  };

  /** The documented chunk first when the text starts with it (as in the examples), then chunks of the rest. */
  const chunksOf = (text: string): string[] =>
    text.startsWith(examples.chatChunk.message) && text !== examples.chatChunk.message
      ? [examples.chatChunk.message, ...chunkText(text.slice(examples.chatChunk.message.length), CHUNK)]
      : chunkText(text, CHUNK);

  /** Steps of a stream, each published after the delay; stops when the signal aborts. */
  async function play(steps: (() => void)[], signal: AbortSignal): Promise<void> {
    // Never before the HTTP answer that started it has been handed back.
    await new Promise((resolve) => setImmediate(resolve));
    for (const step of steps) {
      await abortableDelay(deps.delayMs, signal);
      step();
    }
  }

  function streamText(chatRoomId: number, text: string, run?: RunPublishers): (() => void)[] {
    const full = examples.chatTexts[0] ?? { ...examples.chatChunk, isComplete: true };
    return [...chunksOf(text).map((chunk) => () => chat(chatRoomId, examples.chatChunk, chunk, run)), () => chat(chatRoomId, full, text, run)];
  }

  function generationSteps(tripPlanId: number, run: RunPublishers): (() => void)[] {
    const chatRoomId = tripPlanId;
    return [
      // A day's summary is its description, as in the examples (chatFinal repeats dailyPlanGenerated's).
      ...examples.days.flatMap((day) => [() => run.schedule({ ...day, tripPlanId }), ...streamText(chatRoomId, day.dailyPlan.description, run)]),
      () => chat(chatRoomId, examples.completed, undefined, run),
    ];
  }

  const logFailure = (what: string) => (error: unknown) => {
    if (!(error instanceof Error && error.name === 'AbortError')) deps.log.error({ err: error }, `mock ${what} failed`);
  };

  return {
    start(tripPlanId) {
      if (runs.has(tripPlanId)) return;
      const abort = new AbortController();
      const out = publishers.startRun({ memberId, tripPlanId, chatRoomId: tripPlanId });
      const done = play(generationSteps(tripPlanId, out), abort.signal)
        .catch(logFailure('generation'))
        .finally(() => runs.delete(tripPlanId));
      runs.set(tripPlanId, { abort, done, out });
    },
    cancel(tripPlanId) {
      const run = runs.get(tripPlanId);
      if (!run) return;
      run.abort.abort(new DOMException('cancelled', 'AbortError'));
      track(run.done.then(() => chat(tripPlanId, examples.cancelled, undefined, run.out)));
    },
    swapped(tripPlanId, chatRoomId) {
      publishers.schedule(memberId, tripPlanId, { ...examples.scheduleUpdated, tripPlanId });
      chat(chatRoomId, examples.chatUpdated);
    },
    answer(chatRoomId) {
      const text = examples.chatTexts.find((t) => !examples.days.some((d) => d.dailyPlan.description === t.message))?.message ?? examples.chatTexts[0]?.message;
      if (text === undefined) return;
      track(play(streamText(chatRoomId, text), new AbortController().signal).catch(logFailure('chat answer')));
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
