// The order asyncapi.yaml documents for one generation: per day its DAILY_PLAN_GENERATED on the
// schedule channel, then the day's summary streamed on the chat (CHAT chunks, the last complete),
// and after the last day the chat's COMPLETED; nothing on the errors channel, nothing after the end.
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
      if (state !== 'day' || m.body?.type !== 'DAILY_PLAN_GENERATED' || m.body?.dailyPlan?.dayNumber !== expectedDay) {
        problems.push(
          `expected day ${expectedDay}'s DAILY_PLAN_GENERATED ${state === 'day' ? '' : 'after the summary '}but got ${m.body?.type} of day ${m.body?.dailyPlan?.dayNumber}`,
        );
      }
      state = 'summary';
    } else if (where === 'chat') {
      if (m.body?.messageStreamType === 'COMPLETED') {
        if (state !== 'day' || expectedDay !== days + 1) problems.push(`COMPLETED after ${expectedDay - 1} of ${days} days`);
        state = 'done';
      } else if (m.body?.messageStreamType === 'CHAT') {
        if (state !== 'summary') problems.push(`chat summary before day ${expectedDay}'s DAILY_PLAN_GENERATED`);
        if (m.body.isComplete) {
          expectedDay++;
          state = 'day';
        }
      } else {
        problems.push(`unexpected chat ${m.body?.messageStreamType} during generation`);
      }
    }
  }
  if (state !== 'done') problems.push(`the run did not end with COMPLETED (${expectedDay - 1} of ${days} days seen)`);
  return problems;
}
