// How an instance follows a Redis plan log (redisPlanLog.ts): one Pub/Sub subscription per log
// that has local subscribers (reference-counted), the live messages handed to the broker in offset
// order, a gap filled from the stream first, a new epoch followed, and after a reconnect what was
// missed read from the stream. A log followed while Redis was away, or whose subscription could not
// be confirmed (a silent link), is located once Redis answers: what was appended since the follow
// began comes first, then the live messages.
import { COMMAND_TIMEOUT_MS } from '../redis/redisConnections.js';
import type { LoggedMessage, LogPosition } from './planLog.js';
import { entryOf, parseLive, repliesOf, stampOf } from './redisPlanLogEntries.js';
import { readRange, type Followed, type RedisLogContext } from './redisPlanLogContext.js';
import { LOST_NOTICE } from './redisPlanLogScripts.js';

/** How long an answer waits for its message to come back over Pub/Sub before it is sent anyway. */
const HAND_OVER_WAIT_MS = 2000;

function handToBroker(ctx: RedisLogContext, state: Followed, message: LoggedMessage): void {
  if (state.last && message.epoch === state.last.epoch && message.offset <= state.last.offset) return;
  state.last = { epoch: message.epoch, offset: message.offset };
  ctx.broker.publish(message.memberId, message.destination, message.body, state.last);
  if (state.waiters.length > 0) releaseWaiters(state, (p) => p.epoch !== message.epoch || p.offset <= message.offset);
}

export function releaseWaiters(state: Followed, handed: (position: LogPosition) => boolean): void {
  state.waiters = state.waiters.filter((waiter) => {
    if (!handed(waiter.position)) return true;
    waiter.resolve();
    return false;
  });
}

/**
 * Messages of the log may be lost to this instance's subscribers, and no later message would show
 * it: each subscription is told (ERROR WS110 on its connection), and the log is followed on.
 */
function tellLost(ctx: RedisLogContext, stream: string, state: Followed, why: string): void {
  if (state.onLost.size === 0) return;
  ctx.log.warn({ stream, why, subscriptions: state.onLost.size }, 'plan log messages may be lost to its subscribers: told');
  for (const onLost of [...state.onLost]) onLost();
}

/** Subscribes to the log's channel, then learns where the log stands; a failure leaves both for the next reconnect. */
function subscribeAndLocate(ctx: RedisLogContext, stream: string, state: Followed): Promise<void> {
  return ctx.subscriber
    .subscribe(ctx.keys.channel(stream))
    .then(() => {
      state.confirmed = true;
      return state.awaySince === null ? locate(ctx, stream, state) : locateAfter(ctx, stream, state, state.awaySince);
    })
    .then(() => {
      ctx.renewing.delete(stream);
    })
    .catch((error: unknown) => {
      // Not located: whatever was appended since the follow began is owed once Redis answers
      // again (locating at the top then would skip it). A failed SUBSCRIBE on a silent link has
      // its connection dropped (socketTimeout), and the reconnect retries it.
      if (state.last === null) state.awaySince ??= state.followedAt;
      if (ctx.followed.get(stream) !== state) return;
      ctx.renewing.add(stream);
      retryWhileUp(ctx, stream, state);
      ctx.log.warn({ err: error, stream }, 'could not follow a plan log yet: retried when Redis is back');
    });
}

/**
 * A subscription that failed while its connection still answered something (a slow Redis rather
 * than a silent one) gets no reconnect to retry it: it is retried here.
 */
function retryWhileUp(ctx: RedisLogContext, stream: string, state: Followed): void {
  if (state.retry) return;
  state.retry = setTimeout(() => {
    state.retry = null;
    const due = ctx.followed.get(stream) === state && (!state.confirmed || state.last === null);
    if (due && ctx.subscriber.status === 'ready') void subscribeAndLocate(ctx, stream, state);
  }, COMMAND_TIMEOUT_MS);
  state.retry.unref();
}

/** Where the log stands now: what comes after arrives live (a plain subscriber gets nothing old). */
async function locate(ctx: RedisLogContext, stream: string, state: Followed): Promise<void> {
  const [epoch, top, lostAt] = await ctx.commands.hmget(ctx.keys.meta(stream), 'epoch', 's', 'lostAt');
  state.last ??= epoch && top ? { epoch, offset: Number(top) } : { epoch: '', offset: 0 };
  state.lostAt = lostAt ?? null;
}

/**
 * For a log followed while Redis was away: what was appended since then (by Redis' stamps) is
 * queued before the live messages, which wait meanwhile. Locating at the top instead would lose
 * what another instance appended between Redis' return and this instance's reconnect.
 */
async function locateAfter(ctx: RedisLogContext, stream: string, state: Followed, since: number): Promise<void> {
  state.repairing = true;
  try {
    const replies = await ctx.commands.multi().hmget(ctx.keys.meta(stream), 'epoch', 's', 'lostAt').xrange(ctx.keys.log(stream), '-', '+').exec();
    const [meta, range] = repliesOf(replies) as [[string | null, string | null, string | null], [string, string[]][]];
    const [epoch, top, lostAt] = meta;
    const after = since - ctx.clockSkewAllowanceMs;
    // A message appended while this instance was away that could not be written is owed too: it is lost.
    if (lostAt !== null && Number(lostAt) >= after) tellLost(ctx, stream, state, 'a message of the log was lost while this instance was away from Redis');
    state.lostAt = lostAt ?? null;
    const missed = range.flatMap(([id, fields]) => {
      const message = entryOf(id, fields);
      return message && stampOf(fields) >= after ? [message] : [];
    });
    if (state.last === null) {
      state.last =
        missed.length > 0
          ? { epoch: missed[0]!.epoch, offset: missed[0]!.offset - 1 }
          : epoch && top
            ? { epoch, offset: Number(top) }
            : { epoch: '', offset: 0 };
    }
    state.queue.push(...missed);
    state.queue.sort((a, b) => (a.epoch === b.epoch ? a.offset - b.offset : 0));
    state.awaySince = null;
  } finally {
    state.repairing = false;
    drain(ctx, stream, state);
  }
}

/** After a reconnect: subscribe what never was, and read from the stream what was missed meanwhile. */
async function catchUp(ctx: RedisLogContext, stream: string, state: Followed): Promise<void> {
  if (!state.confirmed || state.last === null) return subscribeAndLocate(ctx, stream, state);
  const [epoch, , lostAt] = await ctx.commands.hmget(ctx.keys.meta(stream), 'epoch', 's', 'lostAt');
  // While disconnected, the epoch this instance's subscribers are in ended (Redis lost the log, or
  // it was replaced) or a message could not be written: what came after their last message may be
  // gone, and a run's last message lost would leave nothing later to show it.
  if (state.last.epoch !== '' && epoch !== state.last.epoch)
    tellLost(ctx, stream, state, 'the log changed epoch while this instance was disconnected from Redis');
  else if (lostAt != null && lostAt !== state.lostAt)
    tellLost(ctx, stream, state, 'a message of the log was lost while this instance was disconnected from Redis');
  state.lostAt = lostAt ?? null;
  const from = state.last.epoch === epoch ? state.last.offset + 1 : 1;
  const missed = await readRange(ctx, stream, from, '+');
  for (const m of missed) state.queue.push(m);
  state.queue.sort((a, b) => (a.epoch === b.epoch ? a.offset - b.offset : 0));
  drain(ctx, stream, state);
}

/** Hands queued live messages to the broker in offset order; a gap is filled from the stream first. */
function drain(ctx: RedisLogContext, stream: string, state: Followed): void {
  // Followed while away and not located yet: what was missed since then goes first (locateAfter).
  if (state.last === null && state.awaySince !== null) return;
  while (state.queue.length > 0 && !state.repairing) {
    const next = state.queue[0]!;
    // Before the starting position is known, the first live message is where this instance starts.
    // So is the first message of a new epoch: Pub/Sub keeps the order of a connection's messages,
    // so none of that epoch came before it unless the connection dropped (then catchUp reads the
    // stream); an epoch that began after a loss starts past 1 with nothing before it to read, and
    // waiting on a read for it would let the messages of the plan's other log overtake it.
    const expected = state.last === null || state.last.epoch !== next.epoch ? next.offset : state.last.offset + 1;
    if (next.offset > expected) return fillGap(ctx, stream, state, expected, next);
    state.queue.shift();
    handToBroker(ctx, state, next);
  }
}

/** Reads the offsets from `expected` up to `next` from the stream, then drains on after them. */
function fillGap(ctx: RedisLogContext, stream: string, state: Followed, expected: number, next: LoggedMessage): void {
  state.repairing = true;
  void readRange(ctx, stream, expected, next.offset - 1)
    .then((missed) => missed.forEach((m) => m.epoch === next.epoch && handToBroker(ctx, state, m)))
    .catch((error: unknown) => ctx.log.warn({ err: error, stream }, 'could not fill a gap of a plan log from its stream'))
    .finally(() => {
      state.repairing = false;
      // A gap left inside the epoch the subscribers are in would look like continuity to
      // nobody, but it is silent: tell them. (A new epoch that begins past offset 1 shows it.)
      if (state.last?.epoch === next.epoch && state.last.offset < next.offset - 1) {
        tellLost(ctx, stream, state, 'offsets missing from the log could not be read');
      }
      // Whatever could not be read is lost for this instance: go on after it.
      state.last = { epoch: next.epoch, offset: Math.max(state.last?.epoch === next.epoch ? state.last.offset : 0, next.offset - 1) };
      drain(ctx, stream, state);
    });
}

/** A message on a log's channel: a live message, or the notice that one could not be written. */
export function onLiveMessage(ctx: RedisLogContext, channel: string, text: string): void {
  if (!channel.startsWith(ctx.keys.channelPrefix)) return;
  const stream = channel.slice(ctx.keys.channelPrefix.length);
  const state = ctx.followed.get(stream);
  if (state && text === LOST_NOTICE) return tellLost(ctx, stream, state, 'a message of the log could not be written to Redis');
  const message = parseLive(text);
  if (!state || !message) return;
  state.queue.push(message);
  drain(ctx, stream, state);
}

/** The subscriber (re)connected: ioredis subscribes again by itself; what was published meanwhile is in the streams. */
export function onSubscriberReady(ctx: RedisLogContext): void {
  // The first time, only logs followed before the connection came up have anything to do.
  const first = !ctx.readyOnce;
  ctx.readyOnce = true;
  for (const [stream, state] of ctx.followed) {
    if (first && state.confirmed) continue;
    // Not yet located (followed while away, or its locating was cut): not ready until it is, so
    // nothing is published for it before its starting position is known.
    if (!state.confirmed || state.last === null) ctx.renewing.add(stream);
    catchUp(ctx, stream, state).catch((error: unknown) => ctx.log.warn({ err: error, stream }, 'could not read what a plan log missed while disconnected'));
  }
}

/** PlanLog.follow: the first follow of a log subscribes to it; the returned function ends this one. */
export async function follow(ctx: RedisLogContext, stream: string, onLost?: () => void): Promise<() => void> {
  const state = ctx.followed.get(stream) ?? startFollowing(ctx, stream);
  state.followers++;
  // One function per follow, so that two subscriptions given the same one are told apart.
  const told = onLost ? () => onLost() : null;
  if (told) state.onLost.add(told);
  const unfollow = once(() => {
    const current = ctx.followed.get(stream);
    if (told) current?.onLost.delete(told);
    if (!current || --current.followers > 0) return;
    stopFollowing(ctx, stream, current);
  });
  await state.subscribed;
  return unfollow;
}

function startFollowing(ctx: RedisLogContext, stream: string): Followed {
  // ioredis subscribes again by itself after a reconnect; what was published meanwhile is in the streams.
  const away = ctx.wasUp.has(ctx.subscriber) && ctx.subscriber.status !== 'ready';
  const state: Followed = {
    followers: 0,
    followedAt: Date.now(),
    subscribed: Promise.resolve(),
    last: null,
    queue: [],
    repairing: false,
    confirmed: false,
    waiters: [],
    awaySince: away ? Date.now() : null,
    retry: null,
    lostAt: null,
    onLost: new Set(),
  };
  ctx.followed.set(stream, state);
  // Subscribed first, then the position read: whatever comes after that position arrives live.
  if (away) ctx.renewing.add(stream);
  state.subscribed = away ? Promise.resolve() : subscribeAndLocate(ctx, stream, state);
  return state;
}

function stopFollowing(ctx: RedisLogContext, stream: string, state: Followed): void {
  ctx.followed.delete(stream);
  ctx.renewing.delete(stream);
  if (state.retry) clearTimeout(state.retry);
  releaseWaiters(state, () => true);
  ctx.subscriber.unsubscribe(ctx.keys.channel(stream)).catch((error: unknown) => ctx.log.warn({ err: error, stream }, 'could not unsubscribe from a plan log'));
}

/** PlanLog.handedOver: resolves once the broker was handed `position`, or after HAND_OVER_WAIT_MS. */
export function handedOver(ctx: RedisLogContext, stream: string, position: LogPosition): Promise<void> {
  const state = ctx.followed.get(stream);
  if (!state || (state.last && state.last.epoch === position.epoch && state.last.offset >= position.offset)) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => releaseWaiters(state, (p) => p === position), HAND_OVER_WAIT_MS);
    state.waiters.push({
      position,
      resolve: () => {
        clearTimeout(timer);
        resolve();
      },
    });
  });
}

function once(action: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    action();
  };
}
