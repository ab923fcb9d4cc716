// What a client can tell from positions alone about one log it follows (asyncapi.yaml, "Late
// subscribers and reconnects"): a message continues what it saw when it has the same epoch and the
// next offset over every channel of the log, or a new epoch at the first offset. Anything else says
// that messages may be missing: a new epoch past the first offset, a new epoch before the run's end,
// a gap in the offsets. Pure state, no I/O: the subscriptions feed it, in arrival order.
import { delivery } from '../generated/realtime/asyncapi.js';
import type { LogName, Position } from './channels.js';

/** One of `delivery.continuity.lostWhen`: why messages may be missing. */
export type ContinuityReason = (typeof delivery.continuity.lostWhen)[number];

const { firstOffset, step } = delivery.position;

export interface LogFollow {
  readonly name: LogName;
  /** the current epoch; null before the first message */
  epoch: string | null;
  /** every offset of the epoch up to this one has come (from the first one seen) */
  watermark: number;
  /** offsets past the watermark that came: after a reconnect, the log's channels replay one after the other */
  above: Set<number>;
  /** the epochs before the current one */
  retired: Set<string>;
  /** a run began in the current epoch and no run's end has come since */
  runOpen: boolean;
  /** a run is about to begin (runs.startedBy was called): the next epoch begins it, at the first offset */
  expectsRun: boolean;
  /** a loss was just told: the next message is where the client goes on from, not a continuation */
  told: boolean;
}

/** What the subscriptions of a scope see of the log right now. */
export interface FollowView {
  /** they subscribe to every channel of the log, so every offset of it comes to them */
  complete: boolean;
  /** each has had its RECEIPT on this connection: no replay is still on its way */
  settled: boolean;
  /** they subscribe to every channel that carries a run's end */
  seesRunEnds: boolean;
}

export function newLogFollow(name: LogName): LogFollow {
  return { name, epoch: null, watermark: 0, above: new Set(), retired: new Set(), runOpen: false, expectsRun: false, told: false };
}

/** The last position seen of the log: what a subscription that saw nothing itself resumes from. */
export function lastPosition(log: LogFollow): Position | null {
  return log.epoch === null ? null : { epoch: log.epoch, offset: Math.max(log.watermark, ...log.above) };
}

function startEpoch(log: LogFollow, position: Position): void {
  // An epoch at the first offset after another epoch is a new run (a log's first message has no epoch before it).
  const runBegins = log.expectsRun || (log.epoch !== null && position.offset === firstOffset);
  if (log.epoch !== null) log.retired.add(log.epoch);
  log.epoch = position.epoch;
  log.watermark = position.offset;
  log.above.clear();
  log.runOpen = runBegins;
  log.expectsRun = false;
}

/** Takes a message of the log in; returns why messages before it may be missing, or null when it continues. */
export function followMessage(log: LogFollow, position: Position, view: FollowView): ContinuityReason | null {
  // A straggler of an epoch already left: it says nothing about the current one.
  if (position.epoch !== log.epoch && log.retired.has(position.epoch)) return null;
  if (log.told) {
    log.told = false;
    if (position.epoch === log.epoch) rebase(log, position.offset);
    else startEpoch(log, position);
    return null;
  }
  if (log.epoch === null) {
    const lost = log.expectsRun && position.offset > firstOffset;
    startEpoch(log, position);
    return lost ? 'newEpochPastFirstOffset' : null;
  }
  if (position.epoch !== log.epoch) {
    const reason = position.offset > firstOffset ? 'newEpochPastFirstOffset' : log.runOpen && view.seesRunEnds && view.settled ? 'newEpochBeforeRunEnd' : null;
    startEpoch(log, position);
    return reason;
  }
  return noteOffset(log, position.offset, view);
}

function noteOffset(log: LogFollow, offset: number, view: FollowView): ContinuityReason | null {
  if (offset <= log.watermark || log.above.has(offset)) return null;
  // Some offsets go to channels nobody here subscribes to: a gap says nothing then.
  if (!view.complete) {
    rebase(log, offset);
    return null;
  }
  log.above.add(offset);
  while (log.above.delete(log.watermark + step)) log.watermark += step;
  return view.settled ? gapOf(log) : null;
}

/** Once no replay is on its way, an offset still missing below the highest one that came is a gap. */
export function gapOf(log: LogFollow): ContinuityReason | null {
  if (log.above.size === 0) return null;
  rebase(log, 0);
  return 'offsetGap';
}

/** Goes on from the highest offset that came (a subscription joined, or a loss was told). */
export function rebase(log: LogFollow, offset: number): void {
  log.watermark = Math.max(log.watermark, offset, ...log.above);
  log.above.clear();
}
