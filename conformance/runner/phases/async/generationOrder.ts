// The order asyncapi.yaml documents for one generation: per day its DAILY_PLAN_GENERATED on the
// schedule channel, then the day's summary streamed on the chat (CHAT chunks, the last complete),
// and after the last day the chat's COMPLETED; nothing on the errors channel, nothing after the end.
import { jsonAt, jsonText } from '../../../specModel/index.js';
import type { ReceivedMessage } from '../../../stomp/recordingStompClient.js';

/** The documented order of one generation, as a list of problems (empty when it holds). */
export function orderProblems(messages: ReceivedMessage[], days: number): string[] {
  const problems: string[] = [];
  let expectedDay = 1;
  let state: 'day' | 'summary' | 'done' = 'day';
  for (const m of messages) {
    const where = m.destination.split('/')[3];
    if (where === 'errors') {
      problems.push(`error message during a successful run: ${m.raw.slice(0, 200)}`);
      continue;
    }
    if (state === 'done') {
      problems.push(`message after COMPLETED: ${m.raw.slice(0, 120)}`);
      continue;
    }
    if (where === 'schedule') {
      const type = jsonAt(m.body, 'type');
      const dayNumber = jsonAt(m.body, 'dailyPlan', 'dayNumber');
      if (state !== 'day' || type !== 'DAILY_PLAN_GENERATED' || dayNumber !== expectedDay) {
        problems.push(
          `expected day ${expectedDay}'s DAILY_PLAN_GENERATED ${state === 'day' ? '' : 'after the summary '}but got ${jsonText(type)} of day ${jsonText(dayNumber)}`,
        );
      }
      state = 'summary';
    } else if (where === 'chat') {
      const streamType = jsonAt(m.body, 'messageStreamType');
      if (streamType === 'COMPLETED') {
        if (state !== 'day' || expectedDay !== days + 1) problems.push(`COMPLETED after ${expectedDay - 1} of ${days} days`);
        state = 'done';
      } else if (streamType === 'CHAT') {
        if (state !== 'summary') problems.push(`chat summary before day ${expectedDay}'s DAILY_PLAN_GENERATED`);
        if (jsonAt(m.body, 'isComplete')) {
          expectedDay++;
          state = 'day';
        }
      } else {
        problems.push(`unexpected chat ${jsonText(streamType)} during generation`);
      }
    }
  }
  if (state !== 'done') problems.push(`the run did not end with COMPLETED (${expectedDay - 1} of ${days} days seen)`);
  return problems;
}
