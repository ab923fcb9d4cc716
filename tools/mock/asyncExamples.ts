// The AsyncAPI message examples the mock streams, picked by what they are (not by their names), so
// a renamed example still plays: the generated days, a summary chunk, the chat answer, the end of a
// run, a cancel, an edit (its start and the edited day). A document without one of them stops the
// mock at start with the reason.
import type { ChannelPayloads } from '../../generated/asyncapi.js';
import { readMessages, type JsonObject } from '../../conformance/specModel/index.js';

type ChatPayload = ChannelPayloads['chatStream'];
type SchedulePayload = ChannelPayloads['scheduleUpdates'];
type DayPayload = Extract<SchedulePayload, { dailyPlan: unknown }>;

export interface AsyncExamples {
  /** DAILY_PLAN_GENERATED, by day number */
  days: DayPayload[];
  /** a CHAT chunk (isComplete false): the first chunk of a summary that starts with its text */
  chatChunk: ChatPayload;
  /** CHAT full texts (isComplete true), e.g. a day's summary or an answer */
  chatTexts: ChatPayload[];
  completed: ChatPayload;
  cancelled: ChatPayload;
  chatUpdated: ChatPayload;
  /** UPDATE_STARTED: an edit of the plan has begun */
  updateStarted: SchedulePayload;
  scheduleUpdated: DayPayload;
  /** the `message` of the errors channel's examples, by code (e.g. TRIP106) */
  errorMessages: Record<string, string>;
}

/** `asyncapi`: the bundled document */
export function readAsyncExamples(asyncapi: JsonObject): AsyncExamples {
  const messages = readMessages(asyncapi);
  // Every example is valid against its message's schema (test/specs/specExamples.test.ts checks them).
  const payloadsOf = <T>(name: string): T[] => (messages.find((m) => m.name === name)?.examples ?? []).map((e) => e.payload as T);
  const chat = payloadsOf<ChatPayload>('ChatStreamDto');
  const schedule = payloadsOf<SchedulePayload>('TripPlanProgressMessage');
  const one = <T>(list: T[], what: string): T => {
    const found = list[0];
    if (found === undefined) throw new Error(`asyncapi.yaml has no message example of ${what}; the mock streams its examples`);
    return found;
  };
  const days = schedule.filter((p): p is DayPayload => p.type === 'DAILY_PLAN_GENERATED').sort((a, b) => a.dailyPlan.dayNumber - b.dailyPlan.dayNumber);
  one(days, 'TripPlanProgressMessage DAILY_PLAN_GENERATED');
  return {
    days,
    chatChunk: one(
      chat.filter((p) => p.messageStreamType === 'CHAT' && !p.isComplete),
      'ChatStreamDto CHAT with isComplete false',
    ),
    chatTexts: chat.filter((p) => p.messageStreamType === 'CHAT' && p.isComplete),
    completed: one(
      chat.filter((p) => p.messageStreamType === 'COMPLETED'),
      'ChatStreamDto COMPLETED',
    ),
    cancelled: one(
      chat.filter((p) => p.messageStreamType === 'CANCELLED'),
      'ChatStreamDto CANCELLED',
    ),
    chatUpdated: one(
      chat.filter((p) => p.messageStreamType === 'UPDATED'),
      'ChatStreamDto UPDATED',
    ),
    updateStarted: one(
      schedule.filter((p) => p.type === 'UPDATE_STARTED'),
      'TripPlanProgressMessage UPDATE_STARTED',
    ),
    scheduleUpdated: one(
      schedule.filter((p): p is DayPayload => p.type === 'UPDATED'),
      'TripPlanProgressMessage UPDATED',
    ),
    errorMessages: Object.fromEntries(payloadsOf<{ code: string; message: string }>('ErrorResponse').map((p) => [p.code, p.message])),
  };
}
