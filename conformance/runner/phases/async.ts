// Phase "async": over STOMP, subscribe to every server-to-client channel of asyncapi.yaml for a
// fresh plan (waiting for receipts), run a generation, and check every message against its
// channel's schema and the documented order, and late and resuming subscribers must get it again
// (replay on SUBSCRIBE); then a chat SEND must be answered; the positions the probe saw must keep
// the rules of `x-delivery`; a forbidden subscription, a garbage frame and a bad token must each get
// an ERROR frame; and the headers of every frame the server sent must match their schemas. The
// steps are in async/, one a file.
import { PhaseRecorder } from '../checks.js';
import { createTripPlan, type RunContext } from '../runContext.js';
import { checkChatAnswers } from './async/chatAnswers.js';
import { checkFrameHeaders } from './async/frameHeaders.js';
import { checkGenerationStream } from './async/generationStream.js';
import { checkLogSequences } from './async/logSequence.js';
import { checkReplayOnSubscribe } from './async/replayOnSubscribe.js';
import { checkStompRefusals } from './async/stompRefusals.js';
import { connectStep, observeConnection, replay, type StompStep } from './async/stompStep.js';

export async function runAsyncPhase(ctx: RunContext): Promise<PhaseRecorder> {
  const step: StompStep = { ctx, recorder: new PhaseRecorder('async'), plan: await createTripPlan(ctx, ctx.a.token), connections: [] };
  const probe = await connectStep(step, ctx.a.token);
  const failedConnect = `could not connect: ${probe.errors[0]?.headers.message ?? 'no CONNECTED frame'}`;
  step.recorder.check(probe.connected, 'stomp_error_frame', 'CONNECT', failedConnect, replay(step, 'CONNECT with a valid token'));
  const { problems } = ctx.spec.delivery;
  for (const problem of problems)
    step.recorder.check(
      false,
      'log_sequence',
      'x-delivery',
      `the AsyncAPI document's x-delivery: ${problem}`,
      'read components.x-delivery and the channels of the AsyncAPI document',
    );
  if (probe.connected) {
    await checkGenerationStream(step, probe);
    await checkReplayOnSubscribe(step, [...probe.messages]);
    await checkChatAnswers(step, probe);
    checkLogSequences(step, probe.messages);
    await probe.disconnect();
  }
  await checkStompRefusals(step);
  checkFrameHeaders(step);
  for (const connection of step.connections) {
    observeConnection(step, connection);
    step.recorder.check(
      connection.overLimit === null,
      'response_size',
      'STOMP',
      `the connection was closed: ${connection.overLimit}`,
      replay(step, 'the steps above'),
    );
  }
  return step.recorder;
}
