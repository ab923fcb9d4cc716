// The plan log (asyncapi.yaml, "Late subscribers and reconnects"): every message on a plan's
// schedule and errors channels, and on a chat room's channel, gets a place in a log, its epoch and
// offset, so a late or reconnecting subscriber can be sent what it missed. A plan's schedule and
// errors channels share one log, a chat room has its own. The embedded log keeps them in memory;
// the Redis log keeps them in Redis for every instance. Both put live messages on this instance's
// broker, so the STOMP side does not care which one runs.

/** The log of a trip plan's schedule and errors channels. */
export const planStream = (tripPlanId: number): string => `plan:${tripPlanId}`;
/** The log of a chat room's channel. */
export const roomStream = (chatRoomId: number): string => `room:${chatRoomId}`;

/** Where a message is in its log. The epoch is opaque text without `:`; offsets start at 1. */
export interface LogPosition {
  epoch: string;
  offset: number;
}

export interface LogEntry {
  memberId: number;
  destination: string;
  /** the JSON body, as sent */
  body: string;
}

export type LoggedMessage = LogEntry & LogPosition;

/**
 * Who writes for a generation run: `run` grows with every start of the plan's generation (a new run
 * starts a new epoch), `attempt` with every claim of that run (the fencing token: an older attempt
 * is refused once a newer one wrote).
 */
export interface RunToken {
  run: number;
  attempt: number;
}

export type AppendOutcome = ({ appended: true } & LogPosition) | { appended: false; reason: 'fenced' | 'closed' };

/** What a replaying subscription asks for: the whole current epoch, or what came after a position. */
export type ReplayFrom = { all: true } | LogPosition;

/** The retained messages asked for, oldest first, or `recovered: false` when some of them are lost. */
export type History = { recovered: true; messages: LoggedMessage[] } | { recovered: false };

export interface PlanLog {
  /**
   * Appends to `stream` and hands the message to the subscribers of every instance. Without a
   * `run` the message is outside any generation run and continues the current epoch. With one, a
   * newer run starts a new epoch, an older run or attempt is refused (`fenced`), and after the
   * run's terminal message (`terminal: true`) nothing more of that run is taken (`closed`). An
   * epoch starts at offset 1 only when nothing before it is missing (the first message of a run or
   * of a log); one that begins after lost messages (the log was lost, or an append failed) starts
   * past 1 (epochStarts.ts).
   */
  append(stream: string, entry: LogEntry, run?: { token: RunToken; terminal: boolean }): Promise<AppendOutcome>;
  /** Takes nothing more of this run (the run's terminal message went to the sibling log). */
  closeRun(stream: string, token: RunToken): Promise<void>;
  /** The retained messages of `stream` that `from` asks for; `recovered: false` when the log cannot be read. */
  history(stream: string, from: ReplayFrom): Promise<History>;
  /**
   * Makes the live messages of `stream` reach this instance's broker until the returned function is
   * called. Reference-counted: one call per subscription; resolves once live messages flow, or at
   * once when the shared log cannot be reached (they flow once it is back). `onLost` is called when
   * this instance learns that messages of the log may be lost to its subscribers and no later
   * message would show it (asyncapi.yaml, ERROR WS110); the log is still followed after it.
   */
  follow(stream: string, onLost?: () => void): Promise<() => void>;
  /**
   * Resolves once this instance's broker has been handed `position` of `stream` (at once when no
   * subscription here follows it), so an answer sent after it cannot overtake that message.
   */
  handedOver(stream: string, position: LogPosition): Promise<void>;
  /** Ends timers and connections. */
  close(): Promise<void>;
}

/**
 * The history `from` asks for out of the retained `messages` of a log at (`epoch`, `top`). Offsets
 * are contiguous and an epoch that began after lost messages starts past 1, so the oldest one
 * retained says whether anything asked for is missing (trimmed, expired, or lost before the epoch).
 */
export function historyOf(log: { epoch: string; top: number; messages: readonly LoggedMessage[] }, from: ReplayFrom): History {
  const after = 'all' in from ? 0 : from.offset;
  if (!('all' in from) && (from.epoch !== log.epoch || from.offset > log.top)) return { recovered: false };
  const oldest = log.messages[0]?.offset ?? log.top + 1;
  if (oldest > after + 1) return { recovered: false };
  return { recovered: true, messages: log.messages.filter((m) => m.offset > after) };
}

/**
 * The history `from` asks for of a log that holds no epoch now: it is whole only for `x-replay: all`
 * of a log that never had a message (`began`: logStarts.ts); one that had some has lost them.
 */
export function historyOfEmpty(from: ReplayFrom, began: boolean): History {
  return 'all' in from && !began ? { recovered: true, messages: [] } : { recovered: false };
}

/** A fresh epoch: random, url-safe, no `:` (asyncapi.yaml `x-epoch`). */
export function newEpoch(): string {
  return crypto.getRandomValues(new Uint8Array(9)).reduce((text, byte) => text + EPOCH_ALPHABET[byte & 63], '');
}

const EPOCH_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
