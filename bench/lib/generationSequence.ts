// Checks what one user received during a generation against the order asyncapi.yaml promises:
// for day d = 1..N, schedule DAILY_PLAN_GENERATED (day d), chat CHAT chunks, then the full CHAT
// text equal to the chunks joined; then chat COMPLETED. Anything missing, out of order or
// unexpected counts as lost; errors-channel messages are counted by the caller, not here.
import type { ChannelPayloads } from '../../generated/asyncapi.js';

export type ReceivedMessage =
  { channel: 'scheduleUpdates'; payload: ChannelPayloads['scheduleUpdates'] } | { channel: 'chatStream'; payload: ChannelPayloads['chatStream'] };

export interface SequenceCheck {
  /** expected messages that did not arrive where they should, plus messages that should not have come */
  lost: number;
  completed: boolean;
  /** what went wrong, for the report */
  problems: string[];
}

type Landmark = `day:${number}` | `summary:${number}` | 'completed';

function landmarkOf(message: ReceivedMessage, tripPlanId: number): Landmark | 'chunk' | 'summary' | null {
  if (message.channel === 'scheduleUpdates') {
    const payload = message.payload;
    return payload.type === 'DAILY_PLAN_GENERATED' && payload.tripPlanId === tripPlanId ? `day:${payload.dailyPlan.dayNumber}` : null;
  }
  const { messageStreamType, isComplete } = message.payload;
  if (messageStreamType === 'CHAT') return isComplete ? 'summary' : 'chunk';
  return messageStreamType === 'COMPLETED' ? 'completed' : null;
}

/** Pairs (received index, expected index) of a longest common subsequence: the most messages that
 * can be explained as arriving in order, so one stray message costs one, not everything after it. */
function alignInOrder(received: readonly string[], expected: readonly Landmark[]): [number, number][] {
  const matches = (r: string, e: Landmark) => (r === 'summary' ? e.startsWith('summary:') : r === e);
  const table = Array.from({ length: received.length + 1 }, () => new Array<number>(expected.length + 1).fill(0));
  for (let i = received.length - 1; i >= 0; i--) {
    for (let j = expected.length - 1; j >= 0; j--) {
      table[i]![j] = matches(received[i]!, expected[j]!) ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
    }
  }
  const pairs: [number, number][] = [];
  for (let i = 0, j = 0; i < received.length && j < expected.length;) {
    if (matches(received[i]!, expected[j]!)) pairs.push([i++, j++]);
    else if (table[i + 1]![j]! >= table[i]![j + 1]!) i++;
    else j++;
  }
  return pairs;
}

export function checkGenerationSequence(received: readonly ReceivedMessage[], days: number, tripPlanId: number): SequenceCheck {
  const expected: Landmark[] = [...Array.from({ length: days }, (_v, i) => [`day:${i + 1}`, `summary:${i + 1}`] as Landmark[]).flat(), 'completed'];
  const problems: string[] = [];
  let lost = 0;

  // Landmarks in arrival order, each with the chunks that arrived just before it.
  const landmarks: { kind: string; message: ReceivedMessage; chunksBefore: string[] }[] = [];
  let chunks: string[] = [];
  for (const message of received) {
    const kind = landmarkOf(message, tripPlanId);
    if (kind === 'chunk') {
      chunks.push((message.payload as ChannelPayloads['chatStream']).message);
      continue;
    }
    landmarks.push({ kind: kind ?? 'other', message, chunksBefore: chunks });
    chunks = [];
  }
  if (chunks.length > 0) {
    lost += chunks.length;
    problems.push(`${chunks.length} chunks after the last full message`);
  }

  const pairs = alignInOrder(
    landmarks.map((l) => l.kind),
    expected,
  );
  const matchedReceived = new Map(pairs);
  const matchedExpected = new Set(pairs.map(([, j]) => j));
  const missing = expected.filter((_e, j) => !matchedExpected.has(j));
  if (missing.length > 0) {
    lost += missing.length;
    problems.push(`missing ${missing.join(', ')}`);
  }
  landmarks.forEach((landmark, i) => {
    const j = matchedReceived.get(i);
    if (j === undefined) {
      lost += 1 + landmark.chunksBefore.length;
      problems.push(`unexpected or out of order: ${landmark.message.channel} ${JSON.stringify(landmark.message.payload).slice(0, 120)}`);
      return;
    }
    const name = expected[j]!;
    if (name.startsWith('summary:')) {
      const full = (landmark.message.payload as ChannelPayloads['chatStream']).message;
      if (landmark.chunksBefore.length === 0 || landmark.chunksBefore.join('') !== full) {
        lost++;
        problems.push(`${name}: ${landmark.chunksBefore.length} chunks do not add up to the full text`);
      }
    } else if (landmark.chunksBefore.length > 0) {
      lost += landmark.chunksBefore.length;
      problems.push(`${landmark.chunksBefore.length} chunks outside a summary, before ${name}`);
    }
  });
  return { lost, completed: matchedExpected.has(expected.length - 1), problems };
}
