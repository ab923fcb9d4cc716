// The plan log of the embedded mode: per log, the last `historySize` messages of its current epoch
// in memory, dropped `historyTtlMs` after the log's last message. Appending delivers on this
// process's broker in the same turn, so a message is in the history before any subscriber sees it
// and a subscription that reads the history and then takes live messages misses none. A restart
// forgets every log; the log's start record (logStarts.ts, in the database) still says it had
// messages, so its next epoch starts past offset 1 and a replay of it is not recovered. The first
// append of a log or run on this process waits for that record (epochStarts.ts); the appends after
// it wait their turn.
import type { Broker } from './broker.js';
import { createEpochStarts, type EpochStart, type EpochStarts } from './epochStarts.js';
import { createInMemoryLogStarts, type LogStarts } from './logStarts.js';
import { historyOf, historyOfEmpty, newEpoch, type AppendOutcome, type LogEntry, type LoggedMessage, type PlanLog, type RunToken } from './planLog.js';

interface StreamState {
  /** null: no message since the log was lost or began (a run closed in it): the next append begins an epoch */
  epoch: string | null;
  top: number;
  /** the run of the current epoch (0: none started yet), and the newest attempt that wrote in it */
  run: number;
  fence: number;
  /** runs up to this one are over: their writers are refused */
  closedThrough: number;
  /** the failed append this log last began a new epoch for (epochStarts.ts) */
  restartedFor: string | null;
  messages: LoggedMessage[];
  lastAppendAt: number;
}

export interface InMemoryPlanLogOptions {
  broker: Broker;
  historySize: number;
  historyTtlMs: number;
  clock: () => number;
  /**
   * where the logs began, kept where it outlives this process: the service's database
   * (databaseLogStarts.ts); default, in this process, as long as the logs (the mock, benchmarks)
   */
  starts?: LogStarts;
}

/** What the functions of an embedded plan log work on: its settings and its logs. */
interface MemoryLogContext {
  broker: Broker;
  historySize: number;
  historyTtlMs: number;
  clock: () => number;
  /** the logs, kept in order of last append, so the expired ones are at the front */
  streams: Map<string, StreamState>;
  epochs: EpochStarts;
  /** per log, the subscriptions to tell when one of its messages is lost (follow's onLost) */
  losers: Map<string, Set<() => void>>;
}

export function createInMemoryPlanLog({ broker, historySize, historyTtlMs, clock, starts }: InMemoryPlanLogOptions): PlanLog & { streams(): number } {
  const ctx: MemoryLogContext = {
    broker,
    historySize,
    historyTtlMs,
    clock,
    streams: new Map(),
    epochs: createEpochStarts(starts ?? createInMemoryLogStarts()),
    losers: new Map(),
  };
  return {
    append(key, entry, writer) {
      const appended = ctx.epochs.inOrder(key, writer?.token.run ?? 0, (begin) => appendNow(ctx, key, entry, writer, begin));
      appended.catch(() => lose(ctx, key));
      return appended;
    },
    closeRun(key, token) {
      return ctx.epochs.inTurn(() => {
        const state = live(ctx, key, clock());
        if (state) state.closedThrough = Math.max(state.closedThrough, token.run);
        else ctx.streams.set(key, { ...blank(token.run), lastAppendAt: clock() });
      });
    },
    async history(key, from) {
      const state = live(ctx, key, clock());
      if (state?.epoch) return historyOf({ epoch: state.epoch, top: state.top, messages: state.messages }, from);
      // The record is in the database: a failure to read it is a history that cannot be read now.
      return ctx.epochs.began(key).then(
        (began) => historyOfEmpty(from, began),
        () => ({ recovered: false as const }),
      );
    },
    follow: (key, onLost) => Promise.resolve(follow(ctx, key, onLost)),
    handedOver() {
      return Promise.resolve();
    },
    close() {
      ctx.streams.clear();
      return Promise.resolve();
    },
    streams: () => ctx.streams.size,
  };
}

/**
 * An append failed (the start record did not answer in time): the message reaches nobody. The log
 * begins a new epoch past offset 1 now (a reconnect with x-since is not recovered) and its
 * subscribers are told, as the lost message may have been a run's last.
 */
function lose(ctx: MemoryLogContext, key: string): void {
  const loss = ctx.epochs.lost().find((lost) => lost.stream === key)?.loss;
  const state = live(ctx, key, ctx.clock());
  if (loss !== undefined && state?.epoch != null && state.restartedFor !== loss) {
    beginEpoch(state, state.run, state.fence, false);
    state.restartedFor = loss;
    ctx.epochs.restarted(key, loss);
  }
  for (const onLost of [...(ctx.losers.get(key) ?? [])]) onLost();
}

function dropExpired(ctx: MemoryLogContext, now: number): void {
  for (const [key, state] of ctx.streams) {
    if (now - state.lastAppendAt < ctx.historyTtlMs) return;
    ctx.streams.delete(key);
  }
}

function live(ctx: MemoryLogContext, key: string, now: number): StreamState | undefined {
  const state = ctx.streams.get(key);
  if (state && now - state.lastAppendAt >= ctx.historyTtlMs) {
    ctx.streams.delete(key);
    return undefined;
  }
  return state;
}

const blank = (closedThrough: number): StreamState => ({
  epoch: null,
  top: 0,
  run: 0,
  fence: 0,
  closedThrough,
  restartedFor: null,
  messages: [],
  lastAppendAt: 0,
});

/** A new epoch: from offset 1 only when nothing before it is missing. */
function beginEpoch(state: StreamState, run: number, fence: number, fresh: boolean): void {
  Object.assign(state, { epoch: newEpoch(), top: fresh ? 0 : 1, run, fence, messages: [] });
}

function appendNow(
  ctx: MemoryLogContext,
  key: string,
  entry: LogEntry,
  writer: { token: RunToken; terminal: boolean } | undefined,
  begin: EpochStart,
): AppendOutcome {
  if (begin.start === 'superseded') return { appended: false, reason: 'fenced' };
  const now = ctx.clock();
  dropExpired(ctx, now);
  const state = live(ctx, key, now) ?? blank(0);
  const fresh = begin.start === 'fresh';
  if (writer) {
    const { run, attempt } = writer.token;
    if (run <= state.closedThrough) return { appended: false, reason: 'closed' };
    if (state.epoch !== null && (run < state.run || (run === state.run && attempt < state.fence))) return { appended: false, reason: 'fenced' };
  }
  const run = writer?.token.run ?? 0;
  if (state.epoch === null || run > state.run) beginEpoch(state, run, writer?.token.attempt ?? 0, fresh);
  // A later attempt took the run over: what the attempt before had in flight when it stopped may be lost.
  else if (writer && writer.token.attempt > state.fence) beginEpoch(state, run, writer.token.attempt, false);
  else if (begin.start === 'restart' && state.restartedFor !== begin.loss) beginEpoch(state, state.run, state.fence, false);
  if (begin.start === 'restart') state.restartedFor = begin.loss;
  if (writer) {
    state.fence = writer.token.attempt;
    if (writer.terminal) state.closedThrough = writer.token.run;
  }
  const message: LoggedMessage = { ...entry, epoch: state.epoch!, offset: ++state.top };
  state.messages.push(message);
  if (state.messages.length > ctx.historySize) state.messages.shift();
  state.lastAppendAt = now;
  ctx.streams.delete(key);
  ctx.streams.set(key, state);
  ctx.broker.publish(entry.memberId, entry.destination, entry.body, message);
  return { appended: true, epoch: message.epoch, offset: message.offset };
}

/** Every message is appended in this process, and delivered by append itself; only a lost one must be told. */
function follow(ctx: MemoryLogContext, key: string, onLost?: () => void): () => void {
  if (!onLost) return () => {};
  const told = () => onLost();
  const set = ctx.losers.get(key) ?? new Set();
  ctx.losers.set(key, set.add(told));
  return () => {
    set.delete(told);
    if (set.size === 0 && ctx.losers.get(key) === set) ctx.losers.delete(key);
  };
}
