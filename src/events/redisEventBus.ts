// The event bus across instances (REDIS_URL): an event reaches this instance's listeners as with
// the in-process bus, and every other instance's through one Redis Pub/Sub channel, the control
// channel for cancel (tripPlanGenerationCancelRequested) and new work (tripPlanGenerationRequested,
// a wake-up for the runners). Pub/Sub delivers at most once: a lost event is found later by the
// database checks (the lease runner's poll, the heartbeat's status read), which stay the truth.
// The channel name carries the database number of REDIS_URL, because Pub/Sub ignores databases.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { DomainEvents, EventBus, EventListener, EventName } from './eventBus.js';

const EVENT_NAMES: ReadonlySet<string> = new Set<EventName>(['tripPlanGenerationRequested', 'tripPlanGenerationCancelRequested']);

export interface RedisEventBusOptions {
  /** redis://host:port/db */
  url: string;
  /** the start of the channel name (tests give each suite its own) */
  keyPrefix?: string;
  onListenerError: (error: unknown, name: EventName) => void;
  /** a message that could not be sent or read (Redis down, a foreign message) */
  onBusError: (error: unknown) => void;
  /** told each time one of its connections tries to reconnect (metrics) */
  onReconnecting?: () => void;
}

export interface RedisEventBus extends EventBus {
  /** resolves once events of other instances arrive */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

export function createRedisEventBus(options: RedisEventBusOptions): RedisEventBus {
  const publisher = new Redis(options.url, { maxRetriesPerRequest: 2 });
  const subscriber = publisher.duplicate();
  for (const connection of [publisher, subscriber]) {
    connection.on('error', options.onBusError);
    if (options.onReconnecting) connection.on('reconnecting', options.onReconnecting);
  }
  const channel = `${options.keyPrefix ?? 'rt:'}ctl:${publisher.options.db ?? 0}:events`;
  // Our own events come back from Redis too; they were delivered here already.
  const origin = randomUUID();
  const listeners = new Map<EventName, Set<EventListener<EventName>>>();

  function deliver(name: EventName, event: DomainEvents[EventName]): void {
    for (const listener of listeners.get(name) ?? []) {
      // As in the in-process bus: after the publisher's transaction, never inside it.
      queueMicrotask(() => {
        Promise.resolve()
          .then(() => listener(event))
          .catch((error: unknown) => options.onListenerError(error, name));
      });
    }
  }

  subscriber.on('message', (from: string, text: string) => {
    if (from !== channel) return;
    try {
      const message = JSON.parse(text) as { origin?: unknown; name?: unknown; event?: unknown };
      if (message.origin === origin) return;
      if (typeof message.name !== 'string' || !EVENT_NAMES.has(message.name) || typeof message.event !== 'object' || message.event === null) {
        throw new Error(`not an event of the bus: ${text.slice(0, 200)}`);
      }
      deliver(message.name as EventName, message.event as DomainEvents[EventName]);
    } catch (error) {
      options.onBusError(error);
    }
  });
  const ready = subscriber.subscribe(channel).then(() => undefined);

  return {
    ready,
    publish(name, event) {
      deliver(name, event);
      publisher.publish(channel, JSON.stringify({ origin, name, event })).catch(options.onBusError);
    },
    subscribe(name, listener) {
      const set = listeners.get(name) ?? new Set();
      listeners.set(name, set);
      set.add(listener as EventListener<EventName>);
      return () => set.delete(listener as EventListener<EventName>);
    },
    async close() {
      listeners.clear();
      await Promise.allSettled([subscriber.quit(), publisher.quit()]);
    },
  };
}
