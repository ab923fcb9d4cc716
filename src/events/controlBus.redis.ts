// The control bus across instances (REDIS_URL): a message reaches this instance's listeners as in
// memory, and every other instance's through one Redis Pub/Sub channel, on the instance's shared
// connections (redis/redisConnections.ts). Pub/Sub delivers at most once. A message from another
// instance is checked against its topic's guard; one that is not a message of the bus is reported,
// not delivered. The channel name carries the database number of REDIS_URL, because Pub/Sub
// ignores databases.
import { randomUUID } from 'node:crypto';
import { COMMAND_TIMEOUT_MS, type RedisConnections } from '../redis/redisConnections.js';
import { localListeners, type ControlBus, type ListenerErrorHandler, type TopicGuards } from './controlBus.js';

export interface RedisControlBusOptions<T extends object> {
  connections: Pick<RedisConnections, 'commands' | 'subscriber'>;
  /** every topic the bus carries, with what its message must be */
  topics: TopicGuards<T>;
  /** the start of the channel name (tests give each suite its own) */
  keyPrefix?: string;
  onListenerError: ListenerErrorHandler<T>;
  /** a message that could not be sent or read (Redis down, a foreign message) */
  onBusError: (error: unknown) => void;
}

export interface RedisControlBus<T extends object> extends ControlBus<T> {
  /** resolves once messages of other instances arrive */
  readonly ready: Promise<void>;
  /** Stops listening; the connections stay open (their owner closes them). */
  close(): Promise<void>;
}

export function createRedisControlBus<T extends object>(options: RedisControlBusOptions<T>): RedisControlBus<T> {
  const { commands, subscriber } = options.connections;
  const { topics, onBusError } = options;
  const channel = `${options.keyPrefix ?? 'rt:'}ctl:${commands.options.db ?? 0}`;
  // Our own messages come back from Redis too; they were delivered here already.
  const origin = randomUUID();
  const listeners = localListeners<T>(options.onListenerError);
  const isTopic = (topic: unknown): topic is keyof T & string => typeof topic === 'string' && Object.hasOwn(topics, topic);

  function onMessage(from: string, text: string): void {
    if (from !== channel) return;
    try {
      const { origin: sender, topic, message } = JSON.parse(text) as { origin?: unknown; topic?: unknown; message?: unknown };
      if (sender === origin) return;
      if (!isTopic(topic) || !topics[topic](message)) throw new Error(`not a message of the control bus: ${text.slice(0, 200)}`);
      listeners.deliver(topic, message);
    } catch (error) {
      onBusError(error);
    }
  }

  // ioredis subscribes again by itself after a reconnect, but only to what Redis confirmed: a
  // SUBSCRIBE that failed (Redis away at the start, a link dropped before it was answered) is sent
  // again once the connection is back, or after a while on one that stayed up.
  let confirmed = false;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  let subscribed!: () => void;
  const ready = new Promise<void>((resolve) => (subscribed = resolve));
  function subscribeChannel(): void {
    if (confirmed || closed || retry) return;
    subscriber.subscribe(channel).then(
      () => {
        confirmed = true;
        subscribed();
      },
      (error: unknown) => {
        onBusError(error);
        if (closed || subscriber.status !== 'ready') return;
        retry = setTimeout(() => {
          retry = null;
          subscribeChannel();
        }, COMMAND_TIMEOUT_MS);
        retry.unref();
      },
    );
  }
  subscriber.on('message', onMessage);
  subscriber.on('ready', subscribeChannel);
  subscribeChannel();

  return {
    ready,
    publish(topic, message) {
      listeners.deliver(topic, message);
      commands.publish(channel, JSON.stringify({ origin, topic, message })).catch(onBusError);
    },
    subscribe: (topic, listener) => listeners.add(topic, listener),
    close() {
      closed = true;
      if (retry) clearTimeout(retry);
      listeners.clear();
      subscriber.off('message', onMessage);
      subscriber.off('ready', subscribeChannel);
      // Not waited for: with Redis away it would wait in the queue; a closed connection ends it anyway.
      if (confirmed && subscriber.status === 'ready') subscriber.unsubscribe(channel).catch(() => {});
      return Promise.resolve();
    },
  };
}
