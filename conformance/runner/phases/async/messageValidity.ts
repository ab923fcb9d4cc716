// A MESSAGE the server sent, against the payload schema of the channel its destination belongs to.
import type { ReceivedMessage } from '../../../stomp/recordingStompClient.js';
import { replay, type StompStep } from './stompStep.js';

/** Returns the name of the message's channel (its destination when no channel matches). */
export function checkAgainstChannel(step: StompStep, m: ReceivedMessage): string {
  const { ctx, recorder } = step;
  const channel = ctx.spec.channelFor(m.destination);
  const validate = channel ? ctx.spec.messageValidator(channel.messages[0]!) : null;
  const valid = validate !== null && m.body !== undefined && validate(m.body);
  const problems = (validate?.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}`);
  const target = channel?.name ?? m.destination;
  recorder.check(
    valid,
    'message_valid',
    target,
    `message does not match its channel schema: ${problems.join('; ')} — ${m.raw.slice(0, 200)}`,
    replay(step, `MESSAGE on ${m.destination}`),
  );
  return target;
}
