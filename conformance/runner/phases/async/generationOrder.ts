// The order asyncapi.yaml documents for one generation: per day its DAILY_PLAN_GENERATED on the
// schedule channel, then the day's summary streamed on the chat (CHAT chunks, the last complete),
// and after the last day the message that ends the run as `completed` (a message its channel's
// `x-delivery` lists in `endsRun`); nothing on the errors channel, nothing after the run's end.
import { jsonAt, jsonText, type Json, type RunOutcome } from '../../../specModel/index.js';

/** A message of the generation: the channel it came on (its name in asyncapi.yaml), and the run it ends, if it ends one. */
export interface GenerationMessage {
  channel: string | undefined;
  body: Json | undefined;
  raw: string;
  runEnd: RunOutcome | null;
}

/** The documented order of one generation, as a list of problems (empty when it holds). */
export function orderProblems(messages: GenerationMessage[], days: number): string[] {
  const problems: string[] = [];
  let expectedDay = 1;
  let state: 'day' | 'summary' | 'done' = 'day';
  for (const m of messages) {
    if (state === 'done') {
      problems.push(`message after the run's last message: ${m.raw.slice(0, 120)}`);
    } else if (m.runEnd !== null) {
      if (m.runEnd !== 'completed') problems.push(`the run ended ${m.runEnd}: ${m.raw.slice(0, 200)}`);
      else if (state !== 'day' || expectedDay !== days + 1) problems.push(`the run completed after ${expectedDay - 1} of ${days} days`);
      state = 'done';
    } else if (m.channel === 'errors') {
      problems.push(`error message during a successful run: ${m.raw.slice(0, 200)}`);
    } else if (m.channel === 'scheduleUpdates') {
      const type = jsonAt(m.body, 'type');
      const dayNumber = jsonAt(m.body, 'dailyPlan', 'dayNumber');
      if (state !== 'day' || type !== 'DAILY_PLAN_GENERATED' || dayNumber !== expectedDay) {
        problems.push(
          `expected day ${expectedDay}'s DAILY_PLAN_GENERATED ${state === 'day' ? '' : 'after the summary '}but got ${jsonText(type)} of day ${jsonText(dayNumber)}`,
        );
      }
      state = 'summary';
    } else if (m.channel === 'chatStream') {
      const streamType = jsonAt(m.body, 'messageStreamType');
      if (streamType !== 'CHAT') {
        problems.push(`unexpected chat ${jsonText(streamType)} during generation`);
        continue;
      }
      if (state !== 'summary') problems.push(`chat summary before day ${expectedDay}'s DAILY_PLAN_GENERATED`);
      if (jsonAt(m.body, 'isComplete')) [expectedDay, state] = [expectedDay + 1, 'day'];
    }
  }
  if (state !== 'done') problems.push(`the run did not end (${expectedDay - 1} of ${days} days seen)`);
  return problems;
}
