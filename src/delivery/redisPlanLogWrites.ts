// What a Redis plan log (redisPlanLog.ts) writes and reads: appends and the end of a run, each by
// one Lua script (redisPlanLogScripts.ts) in the order epochStarts.ts gives them; the history a
// replay asks for; and the new epoch of a log an append to which failed here. A failed append (it
// may even have been appended, its reply lost) makes the log begin a new epoch past offset 1, at
// this instance's next append to it, or as soon as Redis answers again (restartLost).
import type { EpochStart } from './epochStarts.js';
import { historyOf, historyOfEmpty, newEpoch, type AppendOutcome, type History, type LogEntry, type ReplayFrom, type RunToken } from './planLog.js';
import { appendOutcome, entriesOf, repliesOf } from './redisPlanLogEntries.js';
import { whileConnected, type RedisLogContext } from './redisPlanLogContext.js';
import { APPEND_SCRIPT, CLOSE_RUN_SCRIPT, RESTART_SCRIPT } from './redisPlanLogScripts.js';

/** How often a lost append that could not be recorded yet is tried again while Redis answers. */
const RESTART_RETRY_MS = 1000;

/** PlanLog.append, in the order of the calls (to any log); a failure makes the log begin a new epoch (epochStarts.ts). */
export function append(ctx: RedisLogContext, stream: string, entry: LogEntry, writer?: { token: RunToken; terminal: boolean }): Promise<AppendOutcome> {
  const appended = ctx.epochs.inOrder(stream, writer?.token.run ?? 0, async (begin): Promise<AppendOutcome> => {
    if (begin.start === 'superseded') return { appended: false, reason: 'fenced' };
    whileConnected(ctx, ctx.commands);
    return appendOutcome(await ctx.commands.eval(APPEND_SCRIPT, 2, ...appendArguments(ctx, stream, entry, writer, begin)));
  });
  appended.catch(() => retryRestartLater(ctx));
  return appended;
}

/** APPEND_SCRIPT's keys and arguments. */
function appendArguments(ctx: RedisLogContext, stream: string, entry: LogEntry, writer: { token: RunToken; terminal: boolean } | undefined, begin: EpochStart) {
  const { keys } = ctx;
  return [
    keys.meta(stream),
    keys.log(stream),
    keys.channel(stream),
    newEpoch(),
    writer ? '1' : '0',
    writer?.token.run ?? 0,
    writer?.token.attempt ?? 0,
    writer?.terminal ? '1' : '0',
    ctx.historySize,
    ctx.historyTtlSeconds,
    entry.memberId,
    entry.destination,
    entry.body,
    begin.start === 'fresh' ? 'fresh' : 'afterLoss',
    begin.start === 'restart' ? begin.loss : '',
  ];
}

/** PlanLog.closeRun: after the appends before it. */
export async function closeRun(ctx: RedisLogContext, stream: string, token: RunToken): Promise<void> {
  await ctx.epochs.inTurn(() => ctx.commands.eval(CLOSE_RUN_SCRIPT, 1, ctx.keys.meta(stream), token.run, ctx.historyTtlSeconds));
}

/** PlanLog.history: what cannot be read (Redis away) is answered as not recovered, not as an error. */
export async function history(ctx: RedisLogContext, stream: string, from: ReplayFrom): Promise<History> {
  const after = 'all' in from ? 0 : from.offset;
  let replies: [Error | null, unknown][] | null;
  try {
    whileConnected(ctx, ctx.commands);
    replies = await ctx.commands
      .multi()
      .hmget(ctx.keys.meta(stream), 'epoch', 's')
      .xrange(ctx.keys.log(stream), `${after + 1}-0`, '+')
      .exec();
  } catch (error) {
    // Not an error for the subscriber: what it asked for is lost to it, and the state is in the database.
    ctx.log.warn({ err: error, stream }, 'plan log history unreadable: answered as not recovered');
    return { recovered: false };
  }
  const [meta, range] = repliesOf(replies) as [[string | null, string | null], [string, string[]][]];
  const [epoch, top] = meta;
  if (epoch === null || top === null) {
    try {
      return historyOfEmpty(from, await ctx.epochs.began(stream));
    } catch (error) {
      ctx.log.warn({ err: error, stream }, 'plan log start record unreadable: answered as not recovered');
      return { recovered: false };
    }
  }
  return historyOf({ epoch, top: Number(top), messages: entriesOf(range) }, from);
}

/**
 * A log an append to which failed begins a new epoch as soon as Redis answers again (called when
 * the command connection is ready), not only at this instance's next append to it: a subscriber
 * resuming with x-since, or following messages another instance appends, must not take the log for
 * whole. An append can also fail with Redis up (the start record in the database did not answer),
 * and a lost message may be a run's last: the loss is recorded and announced (RESTART_SCRIPT) by a
 * retry too, not only on a reconnect, so that the subscribers that wait for it are told.
 */
export function restartLost(ctx: RedisLogContext): void {
  const lost = ctx.epochs.lost();
  if (lost.length === 0 || ctx.closing) return;
  const { keys } = ctx;
  const recorded = lost.map(({ stream, loss }) =>
    ctx.commands
      .eval(RESTART_SCRIPT, 2, keys.meta(stream), keys.log(stream), newEpoch(), loss, keys.channel(stream), ctx.historyTtlSeconds)
      .then(() => ctx.epochs.restarted(stream, loss))
      .catch((error: unknown) => ctx.log.warn({ err: error, stream }, 'could not record a lost message of a plan log yet: retried')),
  );
  void Promise.all(recorded).then(() => retryRestartLater(ctx));
}

function retryRestartLater(ctx: RedisLogContext): void {
  if (ctx.restartRetry || ctx.closing || ctx.epochs.lost().length === 0) return;
  ctx.restartRetry = setTimeout(() => {
    ctx.restartRetry = null;
    if (ctx.commands.status === 'ready') restartLost(ctx);
    else retryRestartLater(ctx);
  }, RESTART_RETRY_MS);
  ctx.restartRetry.unref();
}
