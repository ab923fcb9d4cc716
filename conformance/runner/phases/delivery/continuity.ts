// The judge of what followers got (asyncapi.yaml, "Late subscribers and reconnects"). A client may
// lose messages only when it is told: a lost connection, a RECEIPT with `x-recovered: false`, or
// offsets that do not continue (a gap, a new epoch mid-run, an epoch that starts past 1). Always:
// no message twice, the messages of a destination in offset order, one position one message on
// every instance, a RECEIPT's `x-recovered: true` only when the history it delivered is whole, and
// no silent tail (a follower that was never told must get the run to its end). Without faults
// injected nothing may be lost at all: every follower gets every message once, in order.
import type { ReceivedMessage } from '../../../stomp/recordingStompClient.js';
import type { Follower, Segment, Subscription } from './follower.js';
import { positionOf, type PlanLog } from './planLogs.js';

export type DeliveryCheck = 'delivery_once' | 'delivery_gap' | 'delivery_recovered' | 'delivery_consistent';

export interface DeliveryProblem {
  check: DeliveryCheck;
  /** the follower and log it concerns */
  target: string;
  message: string;
}

export interface Positioned {
  epoch: string;
  offset: number;
  message: ReceivedMessage;
}

const positioned = (messages: readonly ReceivedMessage[], log: PlanLog): Positioned[] =>
  messages
    .filter((m) => log.destinations.includes(m.destination))
    .flatMap((m) => {
      const p = positionOf(m, log);
      return p ? [{ ...p, message: m }] : [];
    });

/** Offsets from `from` to `to` (inclusive) that `present` lacks, as ranges ("3", "5-7"). */
export function missingRanges(present: ReadonlySet<number>, from: number, to: number): string[] {
  const ranges: string[] = [];
  for (let offset = from; offset <= to; offset++) {
    if (present.has(offset)) continue;
    let end = offset;
    while (end + 1 <= to && !present.has(end + 1)) end++;
    ranges.push(end === offset ? `${offset}` : `${offset}-${end}`);
    offset = end;
  }
  return ranges;
}

/** Where the history a subscription of the segment asked for ends among its messages. */
const historyEnd = (subscriptions: readonly Subscription[]) => Math.max(0, ...subscriptions.map((s) => s.historyUntil));

interface SegmentVerdict {
  problems: DeliveryProblem[];
  /** the segment told the follower that messages may be missing */
  told: boolean;
}

/** One segment of one log: order per destination, the history against its RECEIPTs, gaps and new epochs. */
function judgeSegment(segment: Segment, index: number, log: PlanLog, where: string, faults: boolean): SegmentVerdict {
  const problems: DeliveryProblem[] = [];
  const subscriptions = segment.subscriptions.filter((s) => s.log === log.name);
  const all = positioned(segment.messages, log);
  let told = segment.ended.kind === 'lost';
  for (const destination of log.destinations) {
    const mine = all.filter((p) => p.message.destination === destination);
    mine.forEach((p, i) => {
      const before = mine[i - 1];
      if (before && before.epoch === p.epoch && p.offset <= before.offset)
        problems.push({
          check: 'delivery_once',
          target: where,
          message: `segment ${index}: ${destination} got ${p.epoch}:${p.offset} after ${before.epoch}:${before.offset}`,
        });
    });
  }
  const asked = subscriptions[0]?.asked ?? { kind: 'live' as const };
  for (const s of subscriptions.filter((s) => s.refused))
    problems.push({ check: 'delivery_gap', target: where, message: `segment ${index}: SUBSCRIBE ${s.destination} got no RECEIPT (${s.refused})` });
  if (subscriptions.some((s) => s.recovered === 'false')) {
    told = true;
    if (!faults)
      problems.push({
        check: 'delivery_recovered',
        target: where,
        message: `segment ${index}: RECEIPT x-recovered: false, though no fault was injected: the history was lost`,
      });
  }
  const recovered = asked.kind !== 'live' && subscriptions.length > 0 && subscriptions.every((s) => s.recovered === 'true');
  const history = positioned(segment.messages.slice(0, historyEnd(subscriptions)), log);
  if (recovered) {
    const start = asked.kind === 'since' ? asked.offset + 1 : 1;
    const epoch = asked.kind === 'since' ? asked.epoch : history[0]?.epoch;
    const inEpoch = history.filter((p) => p.epoch === epoch);
    const top = Math.max(start - 1, ...inEpoch.map((p) => p.offset));
    const missing = missingRanges(new Set(inEpoch.map((p) => p.offset)), start, top);
    const strays = history.filter((p) => p.epoch !== epoch || p.offset < start);
    if (missing.length > 0 || strays.length > 0)
      problems.push({
        check: 'delivery_recovered',
        target: where,
        message:
          `segment ${index}: RECEIPT x-recovered: true for ${asked.kind === 'since' ? `x-since ${asked.epoch}:${asked.offset}` : 'x-replay: all'}, but the history ` +
          (missing.length > 0
            ? `lacks offsets ${missing.join(', ')} of ${epoch}`
            : `holds ${strays.map((p) => `${p.epoch}:${p.offset}`).join(', ')}, which it did not ask for`),
      });
  }
  // Continuity over the whole segment, the log's channels merged by offset (a replay delivers one destination's history after the other's).
  const byEpoch = new Map<string, number[]>();
  for (const p of all) byEpoch.set(p.epoch, [...(byEpoch.get(p.epoch) ?? []), p.offset]);
  const epochs = [...byEpoch.keys()];
  epochs.forEach((epoch, i) => {
    const offsets = byEpoch.get(epoch)!;
    const first = i === 0 && asked.kind === 'since' && asked.epoch === epoch ? asked.offset + 1 : i === 0 && asked.kind === 'since' ? Math.min(...offsets) : 1;
    const missing = missingRanges(new Set(offsets), first, Math.max(...offsets));
    const newEpochMidway = i > 0 || (asked.kind === 'since' && asked.epoch !== epoch);
    if (missing.length === 0 && !newEpochMidway) return;
    told = true;
    if (!faults)
      problems.push({
        check: 'delivery_gap',
        target: where,
        message: `segment ${index}: ${newEpochMidway ? `a new epoch ${epoch} began midway` : ''}${newEpochMidway && missing.length ? '; ' : ''}${missing.length ? `offsets ${missing.join(', ')} of ${epoch} never came` : ''}, though no fault was injected`,
      });
  });
  return { problems, told };
}

/**
 * Everything wrong with what one follower got of one log. `reference`: the last position any
 * subscriber got of the log's newest epoch (what a follower that was never told must reach).
 */
export function judgeFollower(
  follower: Pick<Follower, 'name' | 'segments'>,
  log: PlanLog,
  reference: { epoch: string; offset: number } | null,
  faults: boolean,
): DeliveryProblem[] {
  const where = `${follower.name} ${log.name} log`;
  const problems: DeliveryProblem[] = [];
  const seen = new Map<string, number>();
  follower.segments.forEach((segment, index) => {
    for (const p of positioned(segment.messages, log)) {
      const key = `${p.epoch}:${p.offset}`;
      if (seen.has(key)) problems.push({ check: 'delivery_once', target: where, message: `${key} came twice (segments ${seen.get(key)} and ${index})` });
      else seen.set(key, index);
    }
  });
  let told = false;
  let lastTold = false;
  follower.segments.forEach((segment, index) => {
    const verdict = judgeSegment(segment, index, log, where, faults);
    problems.push(...verdict.problems);
    told ||= verdict.told;
    lastTold = verdict.told;
  });
  if (!reference) return problems;
  const offsets = new Set([...seen.keys()].filter((k) => k.startsWith(`${reference.epoch}:`)).map((k) => Number(k.slice(reference.epoch.length + 1))));
  const missing = missingRanges(offsets, 1, reference.offset);
  if (!told && missing.length > 0)
    problems.push({
      check: 'delivery_gap',
      target: where,
      message: `offsets ${missing.join(', ')} of ${reference.epoch} never came, and nothing told the subscriber (no lost connection, no x-recovered: false, no gap in the offsets it got)`,
    });
  else if (!lastTold && !offsets.has(reference.offset))
    problems.push({
      check: 'delivery_gap',
      target: where,
      message: `its last connection stayed open and told it nothing, yet it never got ${reference.epoch}:${reference.offset}, the last message of the log (a silent tail)`,
    });
  return problems;
}

/** One position, one message: what every follower got at a position of a log must be the same frame body on the same destination. */
export function judgeConsistency(followers: readonly Pick<Follower, 'name' | 'segments'>[], log: PlanLog): DeliveryProblem[] {
  const first = new Map<string, { who: string; message: ReceivedMessage }>();
  const problems: DeliveryProblem[] = [];
  for (const follower of followers) {
    for (const segment of follower.segments) {
      for (const p of positioned(segment.messages, log)) {
        const key = `${p.epoch}:${p.offset}`;
        const earlier = first.get(key);
        if (!earlier) first.set(key, { who: `${follower.name} (instance ${segment.instance + 1})`, message: p.message });
        else if (earlier.message.destination !== p.message.destination || earlier.message.raw !== p.message.raw)
          problems.push({
            check: 'delivery_consistent',
            target: `${log.name} log`,
            message: `${key} is ${earlier.message.destination} ${earlier.message.raw.slice(0, 80)} for ${earlier.who}, but ${p.message.destination} ${p.message.raw.slice(0, 80)} for ${follower.name} (instance ${segment.instance + 1})`,
          });
      }
    }
  }
  return problems;
}

/** The highest offset any follower got of `epoch` (the log's current one), or null when none got any. */
export function referenceOf(
  followers: readonly Pick<Follower, 'segments'>[],
  log: PlanLog,
  epoch: string | undefined,
): { epoch: string; offset: number } | null {
  const offsets = followers
    .flatMap((f) => f.segments.flatMap((s) => positioned(s.messages, log)))
    .filter((p) => p.epoch === epoch)
    .map((p) => p.offset);
  return epoch === undefined || offsets.length === 0 ? null : { epoch, offset: Math.max(...offsets) };
}

/** The epoch of the newest message a follower got of the log (its last segment first). */
export function newestEpochOf(follower: Pick<Follower, 'segments'>, log: PlanLog): string | undefined {
  for (const segment of [...follower.segments].reverse()) {
    const mine = positioned(segment.messages, log);
    if (mine.length > 0) return mine[mine.length - 1]!.epoch;
  }
  return undefined;
}
