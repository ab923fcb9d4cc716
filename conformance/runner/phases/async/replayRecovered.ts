// Whether a late subscriber's `x-recovered: true` is true (asyncapi.yaml `x-delivery`: replay,
// position): when the RECEIPT of every channel of a log that a SUBSCRIBE with `x-replay: all`
// asked says `true`, the histories those channels delivered, taken together, are one epoch of the
// log from `firstOffset`, `step` by `step`, without a gap. Judged on what the subscriber got alone,
// so it holds of any history, not only of one the runner watched live.
import type { DeliveryFacts } from '../../../specModel/index.js';
import type { ReceivedMessage } from '../../../stomp/recordingStompClient.js';
import { replay, type StompStep } from './stompStep.js';

/** Every way a log's history, all of whose RECEIPTs said `x-recovered: true`, is not whole. */
export function recoveredHistoryProblems(history: ReceivedMessage[], position: DeliveryFacts['position']): string[] {
  const epochs = new Set(history.map((m) => m.headers[position.epochHeader]));
  if (epochs.size > 1) return [`the history holds ${epochs.size} epochs (${[...epochs].join(', ')}), not the current one alone`];
  const offsets = history.map((m) => Number(m.headers[position.offsetHeader])).sort((a, b) => a - b);
  const problems: string[] = [];
  if (offsets.length > 0 && offsets[0] !== position.firstOffset) problems.push(`the history begins at offset ${offsets[0]}, not at ${position.firstOffset}`);
  offsets.forEach((offset, i) => {
    const before = offsets[i - 1];
    if (before !== undefined && offset !== before + position.step)
      problems.push(`the history has offset ${offset} after ${before}: expected ${before + position.step}`);
  });
  return problems;
}

/**
 * `recovered`: each channel's RECEIPT `x-recovered`, by channel name; `history`: what each channel
 * delivered before its RECEIPT.
 */
export function checkRecoveredHistories(step: StompStep, recovered: Map<string, string | undefined>, history: Map<string, ReceivedMessage[]>): void {
  const facts = step.ctx.spec.delivery.facts;
  if (!facts) return;
  for (const log of Object.keys(facts.logs)) {
    const channels = [...recovered.keys()].filter((name) => facts.channels[name]?.log === log);
    if (channels.length === 0 || !channels.every((name) => recovered.get(name) === 'true')) continue;
    const problems = recoveredHistoryProblems(
      channels.flatMap((name) => history.get(name) ?? []),
      facts.position,
    );
    const how = replay(step, `SUBSCRIBE with x-replay:all to ${channels.join(', ')} after the generation, and compare the histories`);
    step.recorder.check(problems.length === 0, 'replay_recovered', log, `x-recovered: true on ${channels.join(', ')}, but ${problems.join('; ')}`, how);
  }
}
