// One subscription to a logged destination. Plain: live messages from now on. Replaying: the
// history asked for, then the live messages, with no gap and no duplicate. Live messages are taken
// (and held back) before the history is read, so a message published meanwhile is in one of the
// two, or both: the held-back ones at or below the last position delivered are dropped.
import type { Broker, Delivery } from './broker.js';
import type { LogPosition, PlanLog, ReplayFrom } from './planLog.js';

export interface LogSubscription {
  end: () => void;
  /** for a replaying subscription: whether everything asked for was delivered; null for a plain one */
  recovered: boolean | null;
}

export interface LogSubscriptionTarget {
  memberId: number;
  destination: string;
  /** the log of the destination (planLog.ts: planStream, roomStream) */
  stream: string;
}

export async function subscribeToLog(
  log: PlanLog,
  broker: Broker,
  target: LogSubscriptionTarget,
  from: ReplayFrom | null,
  deliver: Delivery,
  onLost?: () => void,
): Promise<LogSubscription> {
  const { memberId, destination, stream } = target;
  const unfollow = await log.follow(stream, onLost);
  if (!from) {
    const end = broker.subscribe(memberId, destination, deliver);
    return { end: () => (end(), unfollow()), recovered: null };
  }
  let last: LogPosition | null = 'all' in from ? null : from;
  const pass: Delivery = (body, position) => {
    if (last && position.epoch === last.epoch && position.offset <= last.offset) return;
    last = position;
    deliver(body, position);
  };
  let heldBack: Array<[string, LogPosition]> | null = [];
  const endLive = broker.subscribe(memberId, destination, (body, position) => (heldBack ? heldBack.push([body, position]) : pass(body, position)));
  const end = () => (endLive(), unfollow());
  try {
    const history = await log.history(stream, from);
    if (history.recovered) {
      for (const m of history.messages) if (m.destination === destination && m.memberId === memberId) pass(m.body, m);
    }
    // Not recovered from an x-since position: what follows is live, and what the client already
    // had of that epoch (up to the position it gave) is still not sent twice.
    for (const [body, position] of heldBack) pass(body, position);
    heldBack = null;
    return { end, recovered: history.recovered };
  } catch (error) {
    end();
    throw error;
  }
}
