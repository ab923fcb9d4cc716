// The positions of a log's messages (asyncapi.yaml `x-delivery`: position, logs), as the probe saw
// them: it subscribed to every channel the server sends on before the plan's first message, so
// over the channels of each log it must see every epoch begin at `firstOffset` and its offsets grow
// by `step`, in arrival order, without a gap.
import type { DeliveryFacts } from '../../../specModel/index.js';
import type { ReceivedMessage } from '../../../stomp/recordingStompClient.js';
import { channelsByDestination, replay, type StompStep } from './stompStep.js';

/** At most this many problems of one log are reported; the rest are counted. */
const REPORTED = 5;

/** Every way the messages of one log (every channel of it, in arrival order) break the position rules. */
export function sequenceProblems(messages: ReceivedMessage[], position: DeliveryFacts['position']): string[] {
  const problems: string[] = [];
  let epoch: string | undefined;
  let last = 0;
  for (const m of messages) {
    const [epochText, offsetText] = [m.headers[position.epochHeader], m.headers[position.offsetHeader] ?? ''];
    if (!/^[1-9][0-9]{0,15}$/.test(offsetText) || !epochText) {
      problems.push(`a MESSAGE on ${m.destination} without a valid ${position.epochHeader} and ${position.offsetHeader}`);
      continue;
    }
    const offset = Number(offsetText);
    if (epochText !== epoch) {
      if (offset !== position.firstOffset) problems.push(`epoch ${epochText} begins at offset ${offset} on ${m.destination}, not at ${position.firstOffset}`);
    } else if (offset !== last + position.step) {
      problems.push(`offset ${offset} of epoch ${epochText} on ${m.destination} follows offset ${last}: expected ${last + position.step}`);
    }
    [epoch, last] = [epochText, offset];
  }
  return problems;
}

export function checkLogSequences(step: StompStep, messages: ReceivedMessage[]): void {
  const facts = step.ctx.spec.delivery.facts;
  if (!facts) return;
  const channelOf = channelsByDestination(step);
  for (const log of Object.keys(facts.logs)) {
    const ofLog = messages.filter((m) => facts.channels[channelOf.get(m.destination) ?? '']?.log === log);
    const problems = sequenceProblems(ofLog, facts.position);
    const how = replay(step, `subscribe to every channel of the ${log} log, run a generation and a chat message, and read ${facts.position.offsetHeader}`);
    if (problems.length === 0) step.recorder.check(true, 'log_sequence', log, '', how);
    for (const problem of problems.slice(0, REPORTED)) step.recorder.check(false, 'log_sequence', log, problem, how);
    if (problems.length > REPORTED) step.recorder.check(false, 'log_sequence', log, `and ${problems.length - REPORTED} more problems of this log`, how);
  }
}
