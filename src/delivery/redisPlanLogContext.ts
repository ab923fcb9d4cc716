// What the functions of a Redis plan log (redisPlanLog.ts) work on: its settings, the instance's
// connections, the names of a log's keys and channel, and the state of the logs this instance
// follows and of the appends that failed here. One record per plan log, made by createRedisPlanLog.
import type { Redis } from 'ioredis';
import type { Logger } from '../kernel/logger.js';
import type { Broker } from './broker.js';
import type { EpochStarts } from './epochStarts.js';
import type { LoggedMessage, LogPosition } from './planLog.js';
import { entriesOf } from './redisPlanLogEntries.js';

/** A log this instance follows (redisPlanLogFollow.ts). */
export interface Followed {
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

/**
 * Keys carry the log's hash tag ({plan:42}) so a log's keys share a Redis Cluster slot; channel
 * names carry the database number, because Pub/Sub ignores databases.
 */
export interface LogKeys {
  meta(stream: string): string;
  log(stream: string): string;
  channel(stream: string): string;
  /** what every log's channel name starts with */
  channelPrefix: string;
}

export function logKeys(prefix: string, db: number): LogKeys {
  const channelPrefix = `${prefix}live:${db}:`;
  return {
    meta: (stream) => `${prefix}{${stream}}:meta`,
    log: (stream) => `${prefix}{${stream}}:log`,
    channel: (stream) => `${channelPrefix}${stream}`,
    channelPrefix,
  };
}

export interface RedisLogContext {
  broker: Broker;
  historySize: number;
  historyTtlSeconds: number;
  log: Logger;
  /** how far Redis' clock may be behind this host's (RedisPlanLogOptions) */
  clockSkewAllowanceMs: number;
  commands: Redis;
  subscriber: Redis;
  keys: LogKeys;
  /** the logs this instance follows, by stream */
  followed: Map<string, Followed>;
  /**
   * logs followed while Redis was away, whose subscription waits for it: until they are subscribed,
   * the instance is not ready (a message published meanwhile would not reach their subscribers)
   */
  renewing: Set<string>;
  /** how each append begins an epoch, in order; the logs an append to which failed here */
  epochs: EpochStarts;
  /** the connections that have been up since the log was made (or were up then) */
  wasUp: WeakSet<Redis>;
  /** whether the subscriber has been ready since the log was made (or was then) */
  readyOnce: boolean;
  /** the next try to record the appends that failed here (redisPlanLogWrites.ts) */
  restartRetry: NodeJS.Timeout | null;
  closing: boolean;
}

/**
 * Fails at once while a connection that was up is away, instead of waiting in ioredis' offline
 * queue; before the first connection is up, commands wait for it (start-up).
 */
export function whileConnected(ctx: RedisLogContext, connection: Redis): void {
  if (ctx.wasUp.has(connection) && connection.status !== 'ready') throw new Error(`the Redis connection is ${connection.status}`);
}

/** The messages of a log's stream from offset `from` to `to`. */
export async function readRange(ctx: RedisLogContext, stream: string, from: number, to: number | '+'): Promise<LoggedMessage[]> {
  return entriesOf(await ctx.commands.xrange(ctx.keys.log(stream), `${from}-0`, to === '+' ? '+' : `${to}-0`));
}
