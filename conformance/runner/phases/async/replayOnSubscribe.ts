// Replay on SUBSCRIBE (asyncapi.yaml, "Late subscribers and reconnects"), after the generation the
// probe watched live: every MESSAGE it got carries x-epoch and x-offset; a late subscriber with
// `x-replay: all` gets the same messages of each channel, with the same positions, and a RECEIPT
// with `x-recovered: true`; a reconnect with `x-since` gets exactly what came after that message.
import { fillTemplate } from '../../../specModel/index.js';
import type { ReceivedMessage, RecordingStompClient } from '../../../stomp/recordingStompClient.js';
import { connectStep, destinationChannels, replay, type StompStep } from './stompStep.js';

/** A message as a subscriber sees it: where, its place in its log, and its body. */
const identity = (m: ReceivedMessage) => `${m.destination} ${m.headers['x-epoch']}:${m.headers['x-offset']} ${m.raw}`;

const differences = (expected: string[], got: string[]) =>
  `expected ${expected.length} messages, got ${got.length}; first difference at ${expected.findIndex((e, i) => e !== got[i])}: ` +
  `${expected.find((e, i) => e !== got[i])?.slice(0, 120)} / ${got.find((g, i) => g !== expected[i])?.slice(0, 120)}`;

export async function checkReplayOnSubscribe(step: StompStep, live: ReceivedMessage[]): Promise<void> {
  const { ctx, recorder, plan } = step;
  const { timeoutMs } = ctx.options;
  for (const m of live) {
    const positioned = /^[A-Za-z0-9_-]+$/.test(m.headers['x-epoch'] ?? '') && /^[1-9][0-9]*$/.test(m.headers['x-offset'] ?? '');
    recorder.check(positioned, 'message_replay', m.destination, `MESSAGE without a valid x-epoch and x-offset`, replay(step, `MESSAGE on ${m.destination}`));
  }
  const connect = () => connectStep(step, ctx.a.token);
  const clients: RecordingStompClient[] = [];
  try {
    const late = await connect();
    clients.push(late);
    for (const channel of destinationChannels(step, 'receive')) {
      const destination = fillTemplate(channel.address, plan);
      const how = replay(step, `SUBSCRIBE ${destination} with x-replay:all and a receipt, after the generation`);
      const subscribed = await late.subscribeReplaying(destination, { 'x-replay': 'all' }, { timeoutMs }).catch(() => null);
      recorder.check(subscribed?.recovered === 'true', 'message_replay', channel.name, `RECEIPT x-recovered ${subscribed?.recovered}`, how);
      const expected = live.filter((m) => m.destination === destination).map(identity);
      const got = late.messages.filter((m) => m.destination === destination).map(identity);
      recorder.check(got.join('\n') === expected.join('\n'), 'message_replay', channel.name, differences(expected, got), how);
      recorder.report.messages += got.length;

      const seen = live.filter((m) => m.destination === destination);
      const from = seen[Math.floor(seen.length / 2)];
      if (!from) continue;
      const again = await connect();
      clients.push(again);
      const since = `${from.headers['x-epoch']}:${from.headers['x-offset']}`;
      const resumeHow = replay(step, `SUBSCRIBE ${destination} with x-since:${since}`);
      const resumed = await again.subscribeReplaying(destination, { 'x-since': since }, { timeoutMs }).catch(() => null);
      recorder.check(resumed?.recovered === 'true', 'message_replay', channel.name, `RECEIPT x-recovered ${resumed?.recovered}`, resumeHow);
      const after = seen.slice(seen.indexOf(from) + 1).map(identity);
      const resumedWith = again.messages.map(identity);
      recorder.check(resumedWith.join('\n') === after.join('\n'), 'message_replay', channel.name, differences(after, resumedWith), resumeHow);
    }
  } finally {
    await Promise.all(clients.map((c) => c.disconnect()));
  }
}
