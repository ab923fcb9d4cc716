// One generation over STOMP: every channel the server sends on is subscribed for the plan (each
// SUBSCRIBE waits for its RECEIPT), the generation is started over HTTP, and every message up to
// the run's end (a message its channel's `x-delivery` lists in `endsRun`) is checked against its
// channel's schema, its content type, and the documented order.
import { fillTemplate, runEndOf } from '../../../specModel/index.js';
import type { ReceivedMessage, RecordingStompClient } from '../../../stomp/recordingStompClient.js';
import { send } from '../../httpProbe.js';
import { orderProblems, type GenerationMessage } from './generationOrder.js';
import { checkAgainstChannel } from './messageValidity.js';
import { channelsByDestination, destinationChannels, replay, succeeded, type StompStep } from './stompStep.js';

export async function checkGenerationStream(step: StompStep, probe: RecordingStompClient): Promise<void> {
  const { ctx, recorder, plan } = step;
  const { timeoutMs, generationTimeoutMs } = ctx.options;
  for (const channel of destinationChannels(step, 'receive')) {
    const destination = fillTemplate(channel.address, plan);
    const ok = await succeeded(probe.subscribe(destination, { timeoutMs }));
    if (ok) for (const command of ['SUBSCRIBE', 'RECEIPT']) recorder.observe({ kind: 'frame', command });
    recorder.check(ok, 'stomp_error_frame', channel.name, `no RECEIPT for SUBSCRIBE ${destination}`, replay(step, `SUBSCRIBE ${destination} with a receipt`));
  }
  const channelOf = channelsByDestination(step);
  const facts = ctx.spec.delivery.facts;
  const ofRun = (m: ReceivedMessage): GenerationMessage => {
    const channel = channelOf.get(m.destination);
    return { channel, body: m.body, raw: m.raw, runEnd: facts && channel ? runEndOf(facts, channel, m.body) : null };
  };
  const start = ctx.spec.operation('startTripPlanGeneration');
  const started = await send(ctx.target, { operationId: start.operationId, method: 'POST', path: fillTemplate(start.path, plan), token: ctx.a.token });
  recorder.report.requests++;
  const finished = await probe.waitFor((m) => ofRun(m).runEnd !== null, generationTimeoutMs).catch(() => null);
  const noEnd = facts ? '' : ' (the AsyncAPI document has no readable x-delivery to say which message ends a run)';
  recorder.check(
    started.status === 200 && finished !== null,
    'message_order',
    'generation',
    `the run did not end within ${generationTimeoutMs} ms (start answered ${started.status})${noEnd}`,
    replay(step, 'start a generation and wait for the message that ends the run'),
  );
  const generation = [...probe.messages];
  for (const m of generation) {
    const channel = checkAgainstChannel(step, m);
    recorder.check(
      m.headers['content-type']?.startsWith('application/json') ?? false,
      'message_valid',
      channel,
      `content-type ${m.headers['content-type']}`,
      replay(step, `MESSAGE on ${m.destination}`),
    );
  }
  recorder.report.messages += generation.length;
  for (const problem of orderProblems(generation.map(ofRun), Number(ctx.tripExample.duration))) {
    recorder.check(false, 'message_order', 'generation', problem, replay(step, 'the documented order of one generation'));
  }
  recorder.report.checks++;
}
