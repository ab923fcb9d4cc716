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
// The log's parts: its state (redisPlanLogContext.ts), following (redisPlanLogFollow.ts), writing
// and reading (redisPlanLogWrites.ts), what Redis answers (redisPlanLogEntries.ts).
import type { Redis } from 'ioredis';
import type { Logger } from '../kernel/logger.js';
import type { RedisConnections } from '../redis/redisConnections.js';
import type { Broker } from './broker.js';
import { createEpochStarts } from './epochStarts.js';
import type { LogStarts } from './logStarts.js';
import type { PlanLog } from './planLog.js';
import { logKeys, type RedisLogContext } from './redisPlanLogContext.js';
import { follow, handedOver, onLiveMessage, onSubscriberReady, releaseWaiters } from './redisPlanLogFollow.js';
import { append, closeRun, history, restartLost } from './redisPlanLogWrites.js';

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

export interface RedisPlanLog extends PlanLog {
  /** how many logs this instance follows (diagnostics, tests) */
  followed(): number;
  /** resolves when both connections are up and Redis answers; rejects with why not (readiness) */
  ready(): Promise<void>;
}

export function createRedisPlanLog(options: RedisPlanLogOptions): RedisPlanLog {
  const { commands, subscriber } = options.connections;
  const ctx: RedisLogContext = {
    broker: options.broker,
    historySize: options.historySize,
    historyTtlSeconds: options.historyTtlSeconds,
    log: options.log,
    clockSkewAllowanceMs: options.clockSkewAllowanceMs ?? 1000,
    commands,
    subscriber,
    keys: logKeys(options.keyPrefix ?? 'rt:', commands.options.db ?? 0),
    followed: new Map(),
    renewing: new Set(),
    epochs: createEpochStarts(options.starts),
    wasUp: new WeakSet(),
    // The connections may be up already (opened for the instance before its parts).
    readyOnce: subscriber.status === 'ready',
    restartRetry: null,
    closing: false,
  };
  const stopListening = listenTo(ctx);
  return {
    append: (stream, entry, writer) => append(ctx, stream, entry, writer),
    closeRun: (stream, token) => closeRun(ctx, stream, token),
    history: (stream, from) => history(ctx, stream, from),
    follow: (stream, onLost) => follow(ctx, stream, onLost),
    handedOver: (stream, position) => handedOver(ctx, stream, position),
    close() {
      ctx.closing = true;
      if (ctx.restartRetry) clearTimeout(ctx.restartRetry);
      for (const state of ctx.followed.values()) {
        if (state.retry) clearTimeout(state.retry);
        releaseWaiters(state, () => true);
      }
      // The connections stay open for their owner to close: this log stops listening to them.
      const channels = [...ctx.followed.keys()].map((stream) => ctx.keys.channel(stream));
      ctx.followed.clear();
      stopListening();
      // Not waited for: with Redis away it would wait in the queue; a closed connection ends it anyway.
      if (channels.length > 0 && subscriber.status === 'ready') subscriber.unsubscribe(...channels).catch(() => {});
      return Promise.resolve();
    },
    followed: () => ctx.followed.size,
    async ready() {
      // A command would wait in the offline queue while Redis is away: ask the connections first.
      const down = [commands, subscriber].find((connection) => connection.status !== 'ready');
      if (down) throw new Error(`the Redis connection is ${down.status}`);
      if (ctx.renewing.size > 0) throw new Error(`${ctx.renewing.size} plan log subscriptions made while Redis was away are not renewed yet`);
      await commands.ping();
    },
  };
}

/** What the log does on the connections' events; returns the function that stops it. */
function listenTo(ctx: RedisLogContext): () => void {
  const { commands, subscriber } = ctx;
  const upListeners = new Map<Redis, () => void>([commands, subscriber].map((connection) => [connection, () => void ctx.wasUp.add(connection)]));
  for (const [connection, markUp] of upListeners) {
    if (connection.status === 'ready') markUp();
    else connection.once('ready', markUp);
  }
  const onMessage = (channel: string, text: string) => onLiveMessage(ctx, channel, text);
  const onReady = () => onSubscriberReady(ctx);
  const onCommandsReady = () => restartLost(ctx);
  subscriber.on('message', onMessage);
  subscriber.on('ready', onReady);
  commands.on('ready', onCommandsReady);
  return () => {
    subscriber.off('message', onMessage);
    subscriber.off('ready', onReady);
    commands.off('ready', onCommandsReady);
    for (const [connection, markUp] of upListeners) connection.off('ready', markUp);
  };
}
