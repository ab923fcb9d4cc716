// What the server must refuse with an ERROR frame: another member subscribing to the plan's
// channel, a CONNECT with a garbage token, and a frame that is not STOMP.
import { fillTemplate, placeholderNames } from '../../../specModel/index.js';
import { sendRawFrames } from '../../../stomp/rawFrames.js';
import { connectRecordingStomp } from '../../../stomp/recordingStompClient.js';
import { destinationChannels, replay, succeeded, type StompStep } from './stompStep.js';

export async function checkStompRefusals(step: StompStep): Promise<void> {
  const { ctx, recorder, plan } = step;
  const { wsUrl, timeoutMs } = ctx.options;
  const receiveChannels = destinationChannels(step, 'receive');
  const intruder = await connectRecordingStomp(wsUrl, ctx.b.token, { connectTimeoutMs: timeoutMs });
  if (intruder.connected) {
    const destination = fillTemplate(
      receiveChannels.find((c) => placeholderNames(c.address).includes('tripPlanId'))?.address ?? receiveChannels[0]!.address,
      plan,
    );
    const receipt = await succeeded(intruder.subscribe(destination, { timeoutMs }));
    const refused = await succeeded(intruder.waitForError(timeoutMs));
    recorder.check(
      !receipt && refused,
      'stomp_error_frame',
      'SUBSCRIBE',
      `another member's ${destination} was not refused with an ERROR frame`,
      replay(step, `SUBSCRIBE ${destination} as another member`),
    );
    await intruder.disconnect();
  }
  const badToken = await connectRecordingStomp(wsUrl, 'garbage.not-a.jwt', { connectTimeoutMs: timeoutMs });
  recorder.check(
    !badToken.connected && badToken.errors.length > 0,
    'stomp_error_frame',
    'CONNECT',
    'a garbage token was not refused with an ERROR frame',
    replay(step, 'CONNECT with a garbage token'),
  );
  await badToken.disconnect();
  const garbage = await sendRawFrames(wsUrl, ['HELLO\nfoo:bar\n\nbody\0'], timeoutMs);
  recorder.check(
    garbage.startsWith('ERROR'),
    'stomp_error_frame',
    'frame',
    `a garbage frame got ${JSON.stringify(garbage.slice(0, 80))} instead of an ERROR frame`,
    replay(step, 'send "HELLO\\n\\n\\0"'),
  );
  recorder.report.messages += 3;
}
