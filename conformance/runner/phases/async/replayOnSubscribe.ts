// Replay on SUBSCRIBE (asyncapi.yaml, "Late subscribers and reconnects"), after the generation the
// probe watched live: every MESSAGE it got carries x-epoch and x-offset; a late subscriber with
// `x-replay: all` gets the same messages of each channel, with the same positions, and a RECEIPT
// with `x-recovered: true` that is true of what it got (replayRecovered.ts); a reconnect with
// `x-since` gets exactly what came after that message.
import { fillTemplate } from '../../../specModel/index.js';
import type { ReceivedMessage, RecordingStompClient } from '../../../stomp/recordingStompClient.js';
import type { ChannelInfo } from '../../specIndex.js';
import { checkRecoveredHistories } from './replayRecovered.js';
import { connectStep, destinationChannels, replay, type StompStep } from './stompStep.js';

/** A message as a subscriber sees it: where, its place in its log, and its body. */
const identity = (m: ReceivedMessage) => `${m.destination} ${m.headers['x-epoch']}:${m.headers['x-offset']} ${m.raw}`;

const differences = (expected: string[], got: string[]) =>
  `expected ${expected.length} messages, got ${got.length}; first difference at ${expected.findIndex((e, i) => e !== got[i])}: ` +
  `${expected.find((e, i) => e !== got[i])?.slice(0, 120)} / ${got.find((g, i) => g !== expected[i])?.slice(0, 120)}`;

/** A reconnect that resumes `channel` after the middle message the probe saw there. */
async function checkResume(step: StompStep, channel: ChannelInfo, seen: ReceivedMessage[], clients: RecordingStompClient[]): Promise<void> {
  const { ctx, recorder, plan } = step;
  const from = seen[Math.floor(seen.length / 2)];
  if (!from) return;
  const destination = fillTemplate(channel.address, plan);
  const again = await connectStep(step, ctx.a.token);
  clients.push(again);
  const since = `${from.headers['x-epoch']}:${from.headers['x-offset']}`;
  const how = replay(step, `SUBSCRIBE ${destination} with x-since:${since}`);
  const resumed = await again.subscribeReplaying(destination, { 'x-since': since }, { timeoutMs: ctx.options.timeoutMs }).catch(() => null);
  recorder.check(resumed?.recovered === 'true', 'message_replay', channel.name, `RECEIPT x-recovered ${resumed?.recovered}`, how);
  const after = seen.slice(seen.indexOf(from) + 1).map(identity);
  const resumedWith = again.messages.map(identity);
  recorder.check(resumedWith.join('\n') === after.join('\n'), 'message_replay', channel.name, differences(after, resumedWith), how);
}

export async function checkReplayOnSubscribe(step: StompStep, live: ReceivedMessage[]): Promise<void> {
  const { ctx, recorder, plan } = step;
  for (const m of live) {
    const positioned = /^[A-Za-z0-9_-]+$/.test(m.headers['x-epoch'] ?? '') && /^[1-9][0-9]*$/.test(m.headers['x-offset'] ?? '');
    recorder.check(positioned, 'message_replay', m.destination, `MESSAGE without a valid x-epoch and x-offset`, replay(step, `MESSAGE on ${m.destination}`));
  }
  const clients: RecordingStompClient[] = [];
  const recovered = new Map<string, string | undefined>();
  const history = new Map<string, ReceivedMessage[]>();
  try {
    const late = await connectStep(step, ctx.a.token);
    clients.push(late);
    for (const channel of destinationChannels(step, 'receive')) {
      const destination = fillTemplate(channel.address, plan);
      const how = replay(step, `SUBSCRIBE ${destination} with x-replay:all and a receipt, after the generation`);
      const subscribed = await late.subscribeReplaying(destination, { 'x-replay': 'all' }, { timeoutMs: ctx.options.timeoutMs }).catch(() => null);
      recorder.check(subscribed?.recovered === 'true', 'message_replay', channel.name, `RECEIPT x-recovered ${subscribed?.recovered}`, how);
      const got = late.messages.filter((m) => m.destination === destination);
      recovered.set(channel.name, subscribed?.recovered);
      history.set(channel.name, got);
      const expected = live.filter((m) => m.destination === destination).map(identity);
      recorder.check(got.map(identity).join('\n') === expected.join('\n'), 'message_replay', channel.name, differences(expected, got.map(identity)), how);
      recorder.report.messages += got.length;
      await checkResume(
        step,
        channel,
        live.filter((m) => m.destination === destination),
        clients,
      );
    }
    checkRecoveredHistories(step, recovered, history);
  } finally {
    await Promise.all(clients.map((c) => c.disconnect()));
  }
}
