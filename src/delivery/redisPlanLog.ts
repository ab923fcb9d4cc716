// The plan log shared by every instance (REDIS_URL): per log, a Redis Stream holds the history
// (bounded by REALTIME_HISTORY_SIZE, expiring REALTIME_HISTORY_TTL_SECONDS after the last message)
// and a Pub/Sub channel carries the live messages; one Lua script writes both (redisPlanLogScripts.ts).
// Each instance holds one Pub/Sub subscription per log that has local subscribers
// (reference-counted), hands the messages to its broker in offset order, fills a gap from the
// stream, follows a new epoch, and after a reconnect reads from the stream what it missed.
// Keys carry the log's hash tag ({plan:42}) so a log's keys share a Redis Cluster slot, and every
// key is in the database REDIS_URL names; channel names carry that database number, because Pub/Sub
// ignores databases.
// While Redis is away nothing fails outward: a subscription starts (once Redis is back it gets
// what was appended since it was made, then the live messages), a history cannot be read so it is
// lost to the subscriber (`recovered: false`), and a message that could not be appended makes the
// log begin a new epoch past offset 1 (at this instance's next append to it, or as soon as Redis
// answers again), so every subscriber sees from the epoch that something was lost and rereads the
// state over HTTP. A Redis that comes back empty is told from a log that never had a message by the
// log's start record in the database (logStarts.ts, epochStarts.ts). A silent link (a black-hole
// partition: nothing answers, nothing is reset) is a lost one: a command that gets no byte back
// within COMMAND_TIMEOUT_MS drops the connection (the options of the instance's shared connections,
// redis/redisConnections.ts), and a log whose Pub/Sub subscription could not be confirmed counts as
// followed while Redis was away.
import type { Redis } from 'ioredis';
import type { Logger } from '../kernel/logger.js';
import { COMMAND_TIMEOUT_MS, type RedisConnections } from '../redis/redisConnections.js';
import type { Broker } from './broker.js';
import { createEpochStarts } from './epochStarts.js';
import type { LogStarts } from './logStarts.js';
import { historyOf, historyOfEmpty, newEpoch, type AppendOutcome, type LoggedMessage, type LogPosition, type PlanLog } from './planLog.js';
import { APPEND_SCRIPT, CLOSE_RUN_SCRIPT, LOST_NOTICE, RESTART_SCRIPT } from './redisPlanLogScripts.js';

export interface RedisPlanLogOptions {
  /** the instance's Redis connections (the plan log's close leaves them open) */
  connections: Pick<RedisConnections, 'commands' | 'subscriber'>;
  broker: Broker;
  historySize: number;
  historyTtlSeconds: number;
  log: Logger;
  /** where the logs began, kept where it outlives Redis (the service's database: databaseLogStarts.ts) */
  starts: LogStarts;
  /** the start of every key and channel name (tests give each suite its own) */
  keyPrefix?: string;
  /**
   * How far Redis' clock may be behind this host's (default 1000 ms). A log followed while Redis was
   * away gets, once it is back, the retained messages Redis stamped at most this long before the
   * follow began: a few older ones rather than a lost one.
   */
  clockSkewAllowanceMs?: number;
}

interface Followed {
  followers: number;
  /** Date.now() when this instance began to follow it */
  followedAt: number;
  /** resolves once the Pub/Sub subscription is confirmed and the position it started from is known */
  subscribed: Promise<void>;
  /**
   * the last message handed to the broker, or where the log stood when this instance began to
   * follow it (epoch '' when it did not exist); null until that is known
   */
  last: LogPosition | null;
  /** live messages waiting for a gap to be filled first */
  queue: LoggedMessage[];
  repairing: boolean;
  /** whether the Pub/Sub subscription was confirmed (ioredis renews those by itself after a reconnect) */
  confirmed: boolean;
  /** answers waiting until a position is handed to the broker (handedOver) */
  waiters: Array<{ position: LogPosition; resolve: () => void }>;
  /**
   * Date.now() when it was followed while Redis was away, or when a follow whose subscription could
   * not be confirmed began; null once located (or followed and located while Redis answered)
   */
  awaySince: number | null;
  /** a retry of a subscription that failed while the connection still looked up */
  retry: NodeJS.Timeout | null;
  /** the log's last recorded loss (meta lostAt) this instance knows of; null for none */
  lostAt: string | null;
  /** told when messages of the log may be lost to this instance's subscribers (follow's onLost) */
  onLost: Set<() => void>;
}

/** How long an answer waits for its message to come back over Pub/Sub before it is sent anyway. */
const HAND_OVER_WAIT_MS = 2000;
/** How often a lost append that could not be recorded yet is tried again while Redis answers. */
const RESTART_RETRY_MS = 1000;

export interface RedisPlanLog extends PlanLog {
  /** how many logs this instance follows (diagnostics, tests) */
  followed(): number;
  /** resolves when both connections are up and Redis answers; rejects with why not (readiness) */
  ready(): Promise<void>;
}

export function createRedisPlanLog(options: RedisPlanLogOptions): RedisPlanLog {
  const { broker, historySize, historyTtlSeconds, log } = options;
  const clockSkewAllowanceMs = options.clockSkewAllowanceMs ?? 1000;
  const prefix = options.keyPrefix ?? 'rt:';
  const { commands, subscriber } = options.connections;
  const db = commands.options.db ?? 0;
  const followed = new Map<string, Followed>();
  /**
   * logs followed while Redis was away, whose subscription waits for it: until they are subscribed,
   * the instance is not ready (a message published meanwhile would not reach their subscribers)
   */
  const renewing = new Set<string>();
  /** how each append begins an epoch, in order; the logs an append to which failed here */
  const epochs = createEpochStarts(options.starts);
  // The connections may be up already (opened for the instance before its parts).
  let readyOnce = subscriber.status === 'ready';
  const wasUp = new WeakSet<Redis>();
  const markUp = (connection: Redis) => () => void wasUp.add(connection);
  const upListeners = new Map([commands, subscriber].map((connection) => [connection, markUp(connection)]));
  for (const [connection, markUpNow] of upListeners) {
    if (connection.status === 'ready') markUpNow();
    else connection.once('ready', markUpNow);
  }

  const metaKey = (stream: string) => `${prefix}{${stream}}:meta`;
  const logKey = (stream: string) => `${prefix}{${stream}}:log`;
  const channelOf = (stream: string) => `${prefix}live:${db}:${stream}`;
  const channelPrefix = `${prefix}live:${db}:`;

  function handToBroker(state: Followed, message: LoggedMessage): void {
    if (state.last && message.epoch === state.last.epoch && message.offset <= state.last.offset) return;
    state.last = { epoch: message.epoch, offset: message.offset };
    broker.publish(message.memberId, message.destination, message.body, state.last);
    if (state.waiters.length > 0) releaseWaiters(state, (p) => p.epoch !== message.epoch || p.offset <= message.offset);
  }

  function releaseWaiters(state: Followed, handed: (position: LogPosition) => boolean): void {
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
  function tellLost(stream: string, state: Followed, why: string): void {
    if (state.onLost.size === 0) return;
    log.warn({ stream, why, subscriptions: state.onLost.size }, 'plan log messages may be lost to its subscribers: told');
    for (const onLost of [...state.onLost]) onLost();
  }

  /** Subscribes to the log's channel, then learns where the log stands; a failure leaves both for the next reconnect. */
  function subscribeAndLocate(stream: string, state: Followed): Promise<void> {
    return subscriber
      .subscribe(channelOf(stream))
      .then(() => {
        state.confirmed = true;
        return state.awaySince === null ? locate(stream, state) : locateAfter(stream, state, state.awaySince);
      })
      .then(() => {
        renewing.delete(stream);
      })
      .catch((error: unknown) => {
        // Not located: whatever was appended since the follow began is owed once Redis answers
        // again (locating at the top then would skip it). A failed SUBSCRIBE on a silent link has
        // its connection dropped (socketTimeout), and the reconnect retries it.
        if (state.last === null) state.awaySince ??= state.followedAt;
        if (followed.get(stream) !== state) return;
        renewing.add(stream);
        retryWhileUp(stream, state);
        log.warn({ err: error, stream }, 'could not follow a plan log yet: retried when Redis is back');
      });
  }

  /**
   * A subscription that failed while its connection still answered something (a slow Redis rather
   * than a silent one) gets no reconnect to retry it: it is retried here.
   */
  function retryWhileUp(stream: string, state: Followed): void {
    if (state.retry) return;
    state.retry = setTimeout(() => {
      state.retry = null;
      const due = followed.get(stream) === state && (!state.confirmed || state.last === null);
      if (due && subscriber.status === 'ready') void subscribeAndLocate(stream, state);
    }, COMMAND_TIMEOUT_MS);
    state.retry.unref();
  }

  /** Where the log stands now: what comes after arrives live (a plain subscriber gets nothing old). */
  async function locate(stream: string, state: Followed): Promise<void> {
    const [epoch, top, lostAt] = await commands.hmget(metaKey(stream), 'epoch', 's', 'lostAt');
    state.last ??= epoch && top ? { epoch, offset: Number(top) } : { epoch: '', offset: 0 };
    state.lostAt = lostAt ?? null;
  }

  /**
   * For a log followed while Redis was away: what was appended since then (by Redis' stamps) is
   * queued before the live messages, which wait meanwhile. Locating at the top instead would lose
   * what another instance appended between Redis' return and this instance's reconnect.
   */
  async function locateAfter(stream: string, state: Followed, since: number): Promise<void> {
    state.repairing = true;
    try {
      const replies = await commands.multi().hmget(metaKey(stream), 'epoch', 's', 'lostAt').xrange(logKey(stream), '-', '+').exec();
      const [meta, range] = (replies ?? []).map(([error, value]) => {
        if (error) throw error;
        return value;
      }) as [[string | null, string | null, string | null], [string, string[]][]];
      const [epoch, top, lostAt] = meta;
      const after = since - clockSkewAllowanceMs;
      // A message appended while this instance was away that could not be written is owed too: it is lost.
      if (lostAt !== null && Number(lostAt) >= after) tellLost(stream, state, 'a message of the log was lost while this instance was away from Redis');
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
      drain(stream, state);
    }
  }

  /** After a reconnect: subscribe what never was, and read from the stream what was missed meanwhile. */
  async function catchUp(stream: string, state: Followed): Promise<void> {
    if (!state.confirmed || state.last === null) return subscribeAndLocate(stream, state);
    const [epoch, , lostAt] = await commands.hmget(metaKey(stream), 'epoch', 's', 'lostAt');
    // While disconnected, the epoch this instance's subscribers are in ended (Redis lost the log, or
    // it was replaced) or a message could not be written: what came after their last message may be
    // gone, and a run's last message lost would leave nothing later to show it.
    if (state.last.epoch !== '' && epoch !== state.last.epoch) tellLost(stream, state, 'the log changed epoch while this instance was disconnected from Redis');
    else if (lostAt != null && lostAt !== state.lostAt)
      tellLost(stream, state, 'a message of the log was lost while this instance was disconnected from Redis');
    state.lostAt = lostAt ?? null;
    const from = state.last.epoch === epoch ? state.last.offset + 1 : 1;
    const missed = await readRange(stream, from, '+');
    for (const m of missed) state.queue.push(m);
    state.queue.sort((a, b) => (a.epoch === b.epoch ? a.offset - b.offset : 0));
    drain(stream, state);
  }

  /** Hands queued live messages to the broker in offset order; a gap is filled from the stream first. */
  function drain(stream: string, state: Followed): void {
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
      if (next.offset > expected) {
        state.repairing = true;
        void readRange(stream, expected, next.offset - 1)
          .then((missed) => missed.forEach((m) => m.epoch === next.epoch && handToBroker(state, m)))
          .catch((error: unknown) => log.warn({ err: error, stream }, 'could not fill a gap of a plan log from its stream'))
          .finally(() => {
            state.repairing = false;
            // A gap left inside the epoch the subscribers are in would look like continuity to
            // nobody, but it is silent: tell them. (A new epoch that begins past offset 1 shows it.)
            if (state.last?.epoch === next.epoch && state.last.offset < next.offset - 1) {
              tellLost(stream, state, 'offsets missing from the log could not be read');
            }
            // Whatever could not be read is lost for this instance: go on after it.
            state.last = { epoch: next.epoch, offset: Math.max(state.last?.epoch === next.epoch ? state.last.offset : 0, next.offset - 1) };
            drain(stream, state);
          });
        return;
      }
      state.queue.shift();
      handToBroker(state, next);
    }
  }

  function onMessage(channel: string, text: string): void {
    if (!channel.startsWith(channelPrefix)) return;
    const stream = channel.slice(channelPrefix.length);
    const state = followed.get(stream);
    if (state && text === LOST_NOTICE) return tellLost(stream, state, 'a message of the log could not be written to Redis');
    const message = parseLive(text);
    if (!state || !message) return;
    state.queue.push(message);
    drain(stream, state);
  }
  subscriber.on('message', onMessage);

  // ioredis subscribes again by itself after a reconnect; what was published meanwhile is in the streams.
  const subscriberAway = () => wasUp.has(subscriber) && subscriber.status !== 'ready';

  function onSubscriberReady(): void {
    // The first time, only logs followed before the connection came up have anything to do.
    const first = !readyOnce;
    readyOnce = true;
    for (const [stream, state] of followed) {
      if (first && state.confirmed) continue;
      // Not yet located (followed while away, or its locating was cut): not ready until it is, so
      // nothing is published for it before its starting position is known.
      if (!state.confirmed || state.last === null) renewing.add(stream);
      catchUp(stream, state).catch((error: unknown) => log.warn({ err: error, stream }, 'could not read what a plan log missed while disconnected'));
    }
  }
  subscriber.on('ready', onSubscriberReady);

  // A log an append to which failed begins a new epoch as soon as Redis answers again, not only at
  // this instance's next append to it: a subscriber resuming with x-since, or following messages
  // another instance appends, must not take the log for whole.
  // An append can also fail with Redis up (the start record in the database did not answer), and a
  // lost message may be a run's last: the loss is recorded and announced (RESTART_SCRIPT) by a retry
  // too, not only on a reconnect, so that the subscribers that wait for it are told.
  let restartRetry: NodeJS.Timeout | null = null;
  let closing = false;
  function restartLost(): void {
    const lost = epochs.lost();
    if (lost.length === 0 || closing) return;
    const recorded = lost.map(({ stream, loss }) =>
      commands
        .eval(RESTART_SCRIPT, 2, metaKey(stream), logKey(stream), newEpoch(), loss, channelOf(stream), historyTtlSeconds)
        .then(() => epochs.restarted(stream, loss))
        .catch((error: unknown) => log.warn({ err: error, stream }, 'could not record a lost message of a plan log yet: retried')),
    );
    void Promise.all(recorded).then(retryRestartLater);
  }
  function retryRestartLater(): void {
    if (restartRetry || closing || epochs.lost().length === 0) return;
    restartRetry = setTimeout(() => {
      restartRetry = null;
      if (commands.status === 'ready') restartLost();
      else retryRestartLater();
    }, RESTART_RETRY_MS);
    restartRetry.unref();
  }
  commands.on('ready', restartLost);

  /**
   * Fails at once while a connection that was up is away, instead of waiting in ioredis' offline
   * queue; before the first connection is up, commands wait for it (start-up).
   */
  function whileConnected(connection: Redis): void {
    if (wasUp.has(connection) && connection.status !== 'ready') throw new Error(`the Redis connection is ${connection.status}`);
  }

  async function readRange(stream: string, from: number, to: number | '+'): Promise<LoggedMessage[]> {
    const entries = await commands.xrange(logKey(stream), `${from}-0`, to === '+' ? '+' : `${to}-0`);
    return entries.flatMap(([id, fields]) => {
      const message = entryOf(id, fields);
      return message ? [message] : [];
    });
  }

  return {
    append(stream, entry, writer) {
      // A failure (it may even have been appended, its reply lost) makes the log begin a new epoch (epochStarts.ts).
      const appended = epochs.inOrder(stream, writer?.token.run ?? 0, async (begin): Promise<AppendOutcome> => {
        if (begin.start === 'superseded') return { appended: false, reason: 'fenced' };
        whileConnected(commands);
        const reply = await commands.eval(
          APPEND_SCRIPT,
          2,
          metaKey(stream),
          logKey(stream),
          channelOf(stream),
          newEpoch(),
          writer ? '1' : '0',
          writer?.token.run ?? 0,
          writer?.token.attempt ?? 0,
          writer?.terminal ? '1' : '0',
          historySize,
          historyTtlSeconds,
          entry.memberId,
          entry.destination,
          entry.body,
          begin.start === 'fresh' ? 'fresh' : 'afterLoss',
          begin.start === 'restart' ? begin.loss : '',
        );
        return appendOutcome(reply);
      });
      appended.catch(retryRestartLater);
      return appended;
    },
    async closeRun(stream, token) {
      await epochs.inTurn(() => commands.eval(CLOSE_RUN_SCRIPT, 1, metaKey(stream), token.run, historyTtlSeconds));
    },
    async history(stream, from) {
      const after = 'all' in from ? 0 : from.offset;
      let replies: [Error | null, unknown][] | null;
      try {
        whileConnected(commands);
        replies = await commands
          .multi()
          .hmget(metaKey(stream), 'epoch', 's')
          .xrange(logKey(stream), `${after + 1}-0`, '+')
          .exec();
      } catch (error) {
        // Not an error for the subscriber: what it asked for is lost to it, and the state is in the database.
        log.warn({ err: error, stream }, 'plan log history unreadable: answered as not recovered');
        return { recovered: false };
      }
      const [meta, range] = (replies ?? []).map(([error, value]) => {
        if (error) throw error;
        return value;
      }) as [[string | null, string | null], [string, string[]][]];
      const [epoch, top] = meta;
      if (epoch === null || top === null) {
        try {
          return historyOfEmpty(from, await epochs.began(stream));
        } catch (error) {
          log.warn({ err: error, stream }, 'plan log start record unreadable: answered as not recovered');
          return { recovered: false };
        }
      }
      const messages = range.flatMap(([id, fields]) => entryOf(id, fields) ?? []);
      return historyOf({ epoch, top: Number(top), messages }, from);
    },
    async follow(stream, onLost) {
      let state = followed.get(stream);
      if (!state) {
        const away = subscriberAway();
        const fresh: Followed = {
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
        followed.set(stream, fresh);
        // Subscribed first, then the position read: whatever comes after that position arrives live.
        if (away) renewing.add(stream);
        fresh.subscribed = away ? Promise.resolve() : subscribeAndLocate(stream, fresh);
        state = fresh;
      }
      state.followers++;
      // One function per follow, so that two subscriptions given the same one are told apart.
      const told = onLost ? () => onLost() : null;
      if (told) state.onLost.add(told);
      const unfollow = once(() => {
        const current = followed.get(stream);
        if (told) current?.onLost.delete(told);
        if (!current || --current.followers > 0) return;
        followed.delete(stream);
        renewing.delete(stream);
        if (current.retry) clearTimeout(current.retry);
        releaseWaiters(current, () => true);
        subscriber.unsubscribe(channelOf(stream)).catch((error: unknown) => log.warn({ err: error, stream }, 'could not unsubscribe from a plan log'));
      });
      await state.subscribed;
      return unfollow;
    },
    handedOver(stream, position) {
      const state = followed.get(stream);
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
    },
    close() {
      closing = true;
      if (restartRetry) clearTimeout(restartRetry);
      for (const state of followed.values()) {
        if (state.retry) clearTimeout(state.retry);
        releaseWaiters(state, () => true);
      }
      // The connections stay open for their owner to close: this log stops listening to them.
      const channels = [...followed.keys()].map(channelOf);
      followed.clear();
      subscriber.off('message', onMessage);
      subscriber.off('ready', onSubscriberReady);
      commands.off('ready', restartLost);
      for (const [connection, markUpNow] of upListeners) connection.off('ready', markUpNow);
      // Not waited for: with Redis away it would wait in the queue; a closed connection ends it anyway.
      if (channels.length > 0 && subscriber.status === 'ready') subscriber.unsubscribe(...channels).catch(() => {});
      return Promise.resolve();
    },
    followed: () => followed.size,
    async ready() {
      // A command would wait in the offline queue while Redis is away: ask the connections first.
      const down = [commands, subscriber].find((connection) => connection.status !== 'ready');
      if (down) throw new Error(`the Redis connection is ${down.status}`);
      if (renewing.size > 0) throw new Error(`${renewing.size} plan log subscriptions made while Redis was away are not renewed yet`);
      await commands.ping();
    },
  };
}

function once(action: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    action();
  };
}

function appendOutcome(reply: unknown): AppendOutcome {
  if (!Array.isArray(reply)) throw new Error(`unexpected reply of the plan log script: ${JSON.stringify(reply)}`);
  const [appended, second, third] = reply as [number, string, number | undefined];
  if (appended === 1) return { appended: true, epoch: second, offset: Number(third) };
  if (second === 'fenced' || second === 'closed') return { appended: false, reason: second };
  throw new Error(`unexpected reply of the plan log script: ${JSON.stringify(reply)}`);
}

/** `<epoch>:<offset>:<member id>:<destination>` LF `<body>` (APPEND_SCRIPT's live message). */
function parseLive(text: string): LoggedMessage | null {
  const newline = text.indexOf('\n');
  const [epoch, offset, memberId, destination] = text.slice(0, newline).split(':');
  if (newline < 0 || !epoch || !offset || !memberId || !destination) return null;
  return { epoch, offset: Number(offset), memberId: Number(memberId), destination, body: text.slice(newline + 1) };
}

/** When Redis appended a stream entry (field t, ms by Redis' clock); 0 for an entry without it. */
function stampOf(fields: string[]): number {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === 't') return Number(fields[i + 1]) || 0;
  return 0;
}

/** A stream entry: id `<offset>-0`, fields e, m, d, b (and t, stampOf). */
function entryOf(id: string, fields: string[]): LoggedMessage | null {
  const values = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) values.set(fields[i]!, fields[i + 1]!);
  const [epoch, memberId, destination, body] = ['e', 'm', 'd', 'b'].map((name) => values.get(name));
  if (epoch === undefined || memberId === undefined || destination === undefined || body === undefined) return null;
  return { epoch, offset: Number(id.split('-')[0]), memberId: Number(memberId), destination, body };
}
