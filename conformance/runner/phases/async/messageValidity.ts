// A MESSAGE the server sent, against the payload schema of the channel its destination belongs to.
import type { ReceivedMessage } from '../../../stomp/recordingStompClient.js';
import type { SchemaVerdict } from '../../sandbox/sandbox.js';
import { replay, type StompStep } from './stompStep.js';

/** Returns the name of the message's channel (its destination when no channel matches). */
export function checkAgainstChannel(step: StompStep, m: ReceivedMessage): string {
  const { ctx, recorder } = step;
  const channel = ctx.spec.channelFor(m.destination);
  const target = channel?.name ?? m.destination;
  const verdict = channel && m.body !== undefined ? ctx.spec.messageValidator(channel.messages[0]!)(m.body) : undefined;
  recorder.check(
    verdict?.valid === true,
    'message_valid',
    target,
    `${messageProblem(channel !== null, verdict)} — ${m.raw.slice(0, 200)}`,
    replay(step, `MESSAGE on ${m.destination}`),
  );
  return target;
}

function messageProblem(hasChannel: boolean, verdict: SchemaVerdict | undefined): string {
  if (!hasChannel) return 'no channel of the AsyncAPI document has this destination';
  if (verdict === undefined) return 'the body is not JSON';
  if (verdict.undecided !== undefined) return `the message was not checked: ${verdict.undecided}`;
  return `message does not match its channel schema: ${verdict.problems
    .slice(0, 3)
    .map((e) => `${e.instancePath || '/'} ${e.message}`)
    .join('; ')}`;
}
