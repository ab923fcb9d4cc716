// A scope: the subscriptions of one connection that follow one plan (SubscribeOptions.scope), and
// what they know together of each log they follow. The channels of a log share its offsets, so
// only the subscriptions of every channel of a log together can tell a gap from a message that went
// to a channel nobody here subscribes to; and a run's end on one log ends the run on all of them.
import { delivery } from '../generated/realtime/asyncapi.js';
import { channelsOfLog, runEndChannels, type LogName, type Position, type ReceivableChannel } from './channels.js';
import { newLogFollow, type FollowView, type LogFollow } from './logFollow.js';
import type { OperationParameters } from './realtimeTypes.js';

/** What a scope needs to know of one of its subscriptions. */
export interface ScopeMember {
  readonly channel: ReceivableChannel;
  readonly log: LogName;
  readonly parameters: OperationParameters;
  /** its SUBSCRIBE has had its RECEIPT on the current connection */
  settled: boolean;
  /** the position of the last message it took */
  position: Position | null;
}

export interface Scope {
  readonly key: string;
  readonly members: Set<ScopeMember>;
  readonly logs: Map<LogName, LogFollow>;
}

export function newScope(key: string): Scope {
  return { key, members: new Set(), logs: new Map() };
}

export function followOf(scope: Scope, log: LogName): LogFollow {
  let follow = scope.logs.get(log);
  if (!follow) scope.logs.set(log, (follow = newLogFollow(log)));
  return follow;
}

export function viewOf(scope: Scope, log: LogName): FollowView {
  const members = [...scope.members];
  const followed = new Set(members.map((m) => m.channel));
  return {
    complete: channelsOfLog(log).every((channel) => followed.has(channel)),
    settled: members.every((m) => m.log !== log || m.settled),
    seesRunEnds: runEndChannels.every((channel) => followed.has(channel)),
  };
}

/** The parameters of every subscription of the scope: what the rebuildWith operations of its logs are called with. */
export function parametersOf(scope: Scope): OperationParameters {
  return Object.assign({}, ...[...scope.members].map((m) => m.parameters)) as OperationParameters;
}

/** A run's end came: no log of the scope is in a run any more. */
export function endRun(scope: Scope): void {
  for (const follow of scope.logs.values()) follow.runOpen = false;
}

/** A run is about to begin: the next epoch of each log a run renews must begin at the first offset. */
export function expectRun(scope: Scope): void {
  for (const log of delivery.runs.newEpochOf) followOf(scope, log).expectsRun = true;
}
