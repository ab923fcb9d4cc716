// A client's SEND on every channel it sends on (the chat), with the message's first example: the
// server must acknowledge it with a RECEIPT and answer with a complete CHAT message, and every
// message it sends in answer must match its channel's schema. Then a blank one: refused with
// `CHAT102` on the errors channel (asyncapi.yaml, sendChatMessage), its RECEIPT still sent.
import { fillTemplate, jsonAt, jsonText } from '../../../specModel/index.js';
import type { RecordingStompClient } from '../../../stomp/recordingStompClient.js';
import { checkAgainstChannel } from './messageValidity.js';
import { destinationChannels, replay, succeeded, type StompStep } from './stompStep.js';

export async function checkChatAnswers(step: StompStep, probe: RecordingStompClient): Promise<void> {
  const { ctx, recorder, plan } = step;
  const { timeoutMs, generationTimeoutMs } = ctx.options;
  for (const channel of destinationChannels(step, 'send')) {
    const example = jsonAt(ctx.spec.asyncapi, 'components', 'messages', channel.messages[0]!, 'examples', 0, 'payload') ?? { content: 'hello' };
    const before = probe.messages.length;
    const destination = fillTemplate(channel.address, plan);
    const accepted = await succeeded(probe.send(destination, JSON.stringify(example), { timeoutMs }));
    if (accepted) recorder.observe({ kind: 'frame', command: 'SEND', channel: channel.name });
    recorder.check(
      accepted,
      'stomp_error_frame',
      channel.name,
      `no RECEIPT for SEND ${destination}`,
      replay(step, `SEND ${destination} ${JSON.stringify(example)}`),
    );
    const answer = await probe
      .waitFor(
        (m) => probe.messages.indexOf(m) >= before && jsonAt(m.body, 'messageStreamType') === 'CHAT' && jsonAt(m.body, 'isComplete') === true,
        generationTimeoutMs,
      )
      .catch(() => null);
    recorder.check(answer !== null, 'message_order', channel.name, 'no complete chat answer to a SEND', replay(step, `SEND ${destination}`));
    for (const m of probe.messages.slice(before)) checkAgainstChannel(step, m);
    recorder.report.messages += probe.messages.length - before;
    await checkBlankRefused(step, probe, channel.name, destination, example);
  }
}

/** A blank chat message: `CHAT102` on the channel that carries `ErrorResponse`, and a RECEIPT. */
async function checkBlankRefused(step: StompStep, probe: RecordingStompClient, channelName: string, destination: string, example: unknown): Promise<void> {
  const { ctx, recorder } = step;
  const errorsChannel = ctx.spec.channels.find((c) => c.action === 'receive' && c.messages.includes('ErrorResponse'));
  const before = probe.messages.length;
  const blank = JSON.stringify({ ...(typeof example === 'object' && example !== null ? example : {}), content: '   ' });
  const acknowledged = await succeeded(probe.send(destination, blank, { timeoutMs: ctx.options.timeoutMs }));
  const refusal = await probe
    .waitFor((m) => probe.messages.indexOf(m) >= before && ctx.spec.channelFor(m.destination)?.name === errorsChannel?.name, ctx.options.timeoutMs)
    .catch(() => null);
  const code = jsonAt(refusal?.body, 'code');
  recorder.check(
    acknowledged && code === 'CHAT102',
    'negative_rejected',
    channelName,
    `a blank chat message got ${acknowledged ? 'its RECEIPT' : 'no RECEIPT'} and ${refusal ? `code ${jsonText(code)}` : 'nothing'} on the errors channel; expected CHAT102 there and a RECEIPT`,
    replay(step, `SEND ${destination} ${blank}`),
  );
  if (refusal) checkAgainstChannel(step, refusal);
}
