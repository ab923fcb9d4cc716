// What the server must refuse with an ERROR frame: another member subscribing to the plan's
// channel, a CONNECT with a garbage token, and a frame that is not STOMP.
import { fillTemplate, placeholderNames } from '../../../specModel/index.js';
import { sendRawFrames } from '../../../stomp/rawFrames.js';
import { defaultMaxBodyBytes } from '../../httpProbe.js';
import { connectStep, destinationChannels, replay, succeeded, type StompStep } from './stompStep.js';

export async function checkStompRefusals(step: StompStep): Promise<void> {
  const { ctx, recorder, plan } = step;
  const { wsUrl, timeoutMs, maxBodyBytes = defaultMaxBodyBytes } = ctx.options;
  const receiveChannels = destinationChannels(step, 'receive');
  const intruder = await connectStep(step, ctx.b.token);
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
  const badToken = await connectStep(step, 'garbage.not-a.jwt');
  recorder.check(
    !badToken.connected && badToken.errors.length > 0,
    'stomp_error_frame',
    'CONNECT',
    'a garbage token was not refused with an ERROR frame',
    replay(step, 'CONNECT with a garbage token'),
  );
  await badToken.disconnect();
  const garbage = await sendRawFrames(wsUrl, ['HELLO\nfoo:bar\n\nbody\0'], timeoutMs, maxBodyBytes);
  recorder.check(
    garbage.startsWith('ERROR'),
    'stomp_error_frame',
    'frame',
    `a garbage frame got ${JSON.stringify(garbage.slice(0, 80))} instead of an ERROR frame`,
    replay(step, 'send "HELLO\\n\\n\\0"'),
  );
  const garbageCode = /^error-code:(.+)$/m.exec(garbage)?.[1];
  if (garbage.startsWith('ERROR')) recorder.observe({ kind: 'frame', command: 'ERROR' });
  if (garbageCode) recorder.observe({ kind: 'errorCode', code: garbageCode.trim() });
  recorder.report.messages += 3;
}
