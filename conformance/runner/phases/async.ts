// Phase "async": over STOMP, subscribe to every server-to-client channel of asyncapi.yaml for a
// fresh plan (waiting for receipts), run a generation, and check every message against its
// channel's schema and the documented order; then a chat SEND must be answered; a forbidden
// subscription, a garbage frame and a bad token must each get an ERROR frame.
import { fillTemplate, placeholderNames } from '../../specModel/index.js';
import { PhaseRecorder } from '../checks.js';
import { send } from '../httpProbe.js';
import { createTripPlan, type RunContext } from '../runContext.js';
import { connectRecordingStomp, type ReceivedMessage } from '../../stomp/recordingStompClient.js';
import { sendRawFrames } from '../../stomp/rawFrames.js';

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
        problems.push(`expected day ${expectedDay}'s DAILY_PLAN_GENERATED ${state === 'day' ? '' : 'after the summary '}but got ${m.body?.type} of day ${m.body?.dailyPlan?.dayNumber}`);
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

/** Whether a wait of the recording client ended as hoped (a RECEIPT, a message) rather than refused or timed out. */
const succeeded = (wait: Promise<unknown>): Promise<boolean> => wait.then(() => true, () => false);

export async function runAsyncPhase(ctx: RunContext): Promise<PhaseRecorder> {
  const recorder = new PhaseRecorder('async');
  const { wsUrl, timeoutMs, generationTimeoutMs } = ctx.options;
  // Channels a client reaches by destination on the STOMP server.
  const stompChannels = ctx.spec.channels.filter((c) => c.address.startsWith('/'));
  const receiveChannels = stompChannels.filter((c) => c.action === 'receive');
  const plan = await createTripPlan(ctx, ctx.a.token);
  const replay = (what: string) => `STOMP ${wsUrl}: ${what}`;

  const probe = await connectRecordingStomp(wsUrl, ctx.a.token, { connectTimeoutMs: timeoutMs });
  recorder.check(probe.connected, 'stomp_error_frame', 'CONNECT', `could not connect: ${probe.errors[0]?.headers.message ?? 'no CONNECTED frame'}`, replay('CONNECT with a valid token'));
  if (probe.connected) {
    for (const channel of receiveChannels) {
      const destination = fillTemplate(channel.address, plan);
      const ok = await succeeded(probe.subscribe(destination, { timeoutMs }));
      recorder.check(ok, 'stomp_error_frame', channel.name, `no RECEIPT for SUBSCRIBE ${destination}`, replay(`SUBSCRIBE ${destination} with a receipt`));
    }
    const start = ctx.spec.operation('startTripPlanGeneration');
    const started = await send(ctx.target, { operationId: start.operationId, method: 'POST', path: fillTemplate(start.path, plan), token: ctx.a.token });
    recorder.report.requests++;
    const finished = await probe.waitFor((m) => m.body?.messageStreamType === 'COMPLETED' || m.destination.includes('/errors/'), generationTimeoutMs).catch(() => null);
    recorder.check(started.status === 200 && finished !== null, 'message_order', 'generation', `no COMPLETED within ${generationTimeoutMs} ms (start answered ${started.status})`, replay('start a generation and wait for COMPLETED'));
    const generation = [...probe.messages];
    for (const m of generation) {
      const channel = ctx.spec.channelFor(m.destination);
      const validate = channel ? ctx.spec.messageValidator(channel.messages[0]!) : null;
      const valid = validate !== null && m.body !== undefined && validate(m.body);
      recorder.check(valid, 'message_valid', channel?.name ?? m.destination, `message does not match its channel schema: ${(validate?.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')} — ${m.raw.slice(0, 200)}`, replay(`MESSAGE on ${m.destination}`));
      recorder.check(m.headers['content-type']?.startsWith('application/json') ?? false, 'message_valid', channel?.name ?? m.destination, `content-type ${m.headers['content-type']}`, replay(`MESSAGE on ${m.destination}`));
    }
    recorder.report.messages += generation.length;
    for (const problem of orderProblems(generation, Number(ctx.tripExample.duration))) {
      recorder.check(false, 'message_order', 'generation', problem, replay('the documented order of one generation'));
    }
    recorder.report.checks++;

    for (const channel of stompChannels.filter((c) => c.action === 'send')) {
      const example = (ctx.spec.asyncapi as any).components.messages[channel.messages[0]!]?.examples?.[0]?.payload ?? { content: 'hello' };
      const before = probe.messages.length;
      const destination = fillTemplate(channel.address, plan);
      const accepted = await succeeded(probe.send(destination, JSON.stringify(example), { timeoutMs }));
      recorder.check(accepted, 'stomp_error_frame', channel.name, `no RECEIPT for SEND ${destination}`, replay(`SEND ${destination} ${JSON.stringify(example)}`));
      const answer = await probe.waitFor((m) => probe.messages.indexOf(m) >= before && m.body?.messageStreamType === 'CHAT' && m.body?.isComplete === true, generationTimeoutMs).catch(() => null);
      recorder.check(answer !== null, 'message_order', channel.name, 'no complete chat answer to a SEND', replay(`SEND ${destination}`));
      for (const m of probe.messages.slice(before)) {
        const c = ctx.spec.channelFor(m.destination);
        const validate = c ? ctx.spec.messageValidator(c.messages[0]!) : null;
        recorder.check(validate !== null && validate(m.body), 'message_valid', c?.name ?? m.destination, `answer does not match its channel schema: ${m.raw.slice(0, 200)}`, replay(`MESSAGE on ${m.destination}`));
      }
      recorder.report.messages += probe.messages.length - before;
    }
    await probe.disconnect();
  }

  // Someone else's plan: the subscription must be refused with an ERROR frame.
  const intruder = await connectRecordingStomp(wsUrl, ctx.b.token, { connectTimeoutMs: timeoutMs });
  if (intruder.connected) {
    const destination = fillTemplate(receiveChannels.find((c) => placeholderNames(c.address).includes('tripPlanId'))?.address ?? receiveChannels[0]!.address, plan);
    const receipt = await succeeded(intruder.subscribe(destination, { timeoutMs }));
    const refused = await succeeded(intruder.waitForError(timeoutMs));
    recorder.check(!receipt && refused, 'stomp_error_frame', 'SUBSCRIBE', `another member's ${destination} was not refused with an ERROR frame`, replay(`SUBSCRIBE ${destination} as another member`));
    await intruder.disconnect();
  }
  const badToken = await connectRecordingStomp(wsUrl, 'garbage.not-a.jwt', { connectTimeoutMs: timeoutMs });
  recorder.check(!badToken.connected && badToken.errors.length > 0, 'stomp_error_frame', 'CONNECT', 'a garbage token was not refused with an ERROR frame', replay('CONNECT with a garbage token'));
  await badToken.disconnect();
  const garbage = await sendRawFrames(wsUrl, ['HELLO\nfoo:bar\n\nbody\0'], timeoutMs);
  recorder.check(garbage.startsWith('ERROR'), 'stomp_error_frame', 'frame', `a garbage frame got ${JSON.stringify(garbage.slice(0, 80))} instead of an ERROR frame`, replay('send "HELLO\\n\\n\\0"'));
  recorder.report.messages += 3;
  return recorder;
}
