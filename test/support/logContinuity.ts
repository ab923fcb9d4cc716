// What a STOMP client can tell from `x-epoch` and `x-offset` alone (asyncapi.yaml, "Late
// subscribers and reconnects"): a message continues what it saw when it is the next offset of the
// same epoch (over every channel of that log), or offset 1 of a new epoch (a new run, or a log that
// starts). Anything else tells it that messages may be missing, and to read the saved state over
// HTTP. The fault tests check that a client is never left with a gap it cannot see.
import { jsonAt } from '../../conformance/specModel/index.js';
import type { ReceivedMessage } from './stompTestClient.js';

export interface SeenPosition {
  epoch: string;
  offset: number;
}

const positionOf = (m: ReceivedMessage): SeenPosition => ({ epoch: m.headers['x-epoch']!, offset: Number(m.headers['x-offset']) });

/**
 * For each message of one log (every channel of it, in arrival order), whether the client may take
 * it as the next one; `before`: the last position the client had seen (null: nothing of the log yet,
 * so its first message must start an epoch).
 */
export function continuation(messages: readonly ReceivedMessage[], before: SeenPosition | null): boolean[] {
  let last = before;
  return messages.map((m) => {
    const position = positionOf(m);
    const continues = last !== null && position.epoch === last.epoch ? position.offset === last.offset + 1 : position.offset === 1;
    last = position;
    return continues;
  });
}

/** The day number of a schedule `DAILY_PLAN_GENERATED`; null for any other message. */
export function dayOf(m: ReceivedMessage): number | null {
  if (!m.destination.includes('/schedule/') || jsonAt(m.body, 'type') !== 'DAILY_PLAN_GENERATED') return null;
  const day = jsonAt(m.body, 'dailyPlan', 'dayNumber');
  return typeof day === 'number' ? day : null;
}

/**
 * What went wrong with the days 1..`days` of a run a client received on a plan's log (its schedule
 * and errors channels, in arrival order): a day twice or out of order, or days missing without a
 * message in between that tells the client so. Empty when every day came once, in order, or every
 * gap was told.
 */
export function silentGaps(planLog: readonly ReceivedMessage[], before: SeenPosition | null, days: number): string[] {
  const problems: string[] = [];
  const continues = continuation(planLog, before);
  let expected = 1;
  let told = false;
  planLog.forEach((m, i) => {
    if (!continues[i]) told = true;
    const day = dayOf(m);
    if (day === null) return;
    if (day < expected) problems.push(`day ${day} again or out of order (at ${m.headers['x-epoch']}:${m.headers['x-offset']})`);
    else if (day > expected && !told)
      problems.push(`day ${day} (${m.headers['x-epoch']}:${m.headers['x-offset']}) follows a silent gap: days ${expected} to ${day - 1} missing`);
    expected = Math.max(expected, day + 1);
    told = false;
  });
  if (expected <= days && !told) problems.push(`days ${expected} to ${days} missing, and nothing told`);
  return problems;
}
