// Session revocations across instances (REDIS_URL): a logout or a revoked session reaches this
// instance's listeners at once, as in-process, and every other instance's through Redis Pub/Sub,
// so each closes that session's STOMP connections with WS002 right away. At most once: when the
// message is lost, the periodic session check of each connection (STOMP_SESSION_CHECK_MS) against
// the database still ends them. The channel name carries the database number of REDIS_URL.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { RevocationReason, SessionRevocations, SessionRevoked } from './sessionRevocations.js';

const REASONS: ReadonlySet<string> = new Set<RevocationReason>(['logout', 'refresh-token-reuse']);

export interface RedisSessionRevocationsOptions {
  /** redis://host:port/db */
  url: string;
  /** the start of the channel name (tests give each suite its own) */
  keyPrefix?: string;
  onListenerError: (error: unknown) => void;
  /** a message that could not be sent or read (Redis down, a foreign message) */
  onBusError: (error: unknown) => void;
  /** told each time one of its connections tries to reconnect (metrics) */
  onReconnecting?: () => void;
}

export interface RedisSessionRevocations extends SessionRevocations {
  /** resolves once revocations of other instances arrive */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

export function createRedisSessionRevocations(options: RedisSessionRevocationsOptions): RedisSessionRevocations {
  const publisher = new Redis(options.url, { maxRetriesPerRequest: 2 });
  const subscriber = publisher.duplicate();
  for (const connection of [publisher, subscriber]) {
    connection.on('error', options.onBusError);
    if (options.onReconnecting) connection.on('reconnecting', options.onReconnecting);
  }
  const channel = `${options.keyPrefix ?? 'rt:'}ctl:${publisher.options.db ?? 0}:sessions`;
  // Our own revocations come back from Redis too; they were delivered here already.
  const origin = randomUUID();
  const listeners = new Set<(event: SessionRevoked) => void>();

  function deliver(event: SessionRevoked): void {
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch (error) {
        options.onListenerError(error);
      }
    }
  }

  subscriber.on('message', (from: string, text: string) => {
    if (from !== channel) return;
    try {
      const message = JSON.parse(text) as { origin?: unknown; sessionId?: unknown; reason?: unknown };
      if (message.origin === origin) return;
      if (typeof message.sessionId !== 'string' || typeof message.reason !== 'string' || !REASONS.has(message.reason)) {
        throw new Error(`not a session revocation: ${text.slice(0, 200)}`);
      }
      deliver({ sessionId: message.sessionId, reason: message.reason as RevocationReason });
    } catch (error) {
      options.onBusError(error);
    }
  });
  const ready = subscriber.subscribe(channel).then(() => undefined);

  return {
    ready,
    publish(event) {
      // Synchronous here: this instance's connections close before the logout response leaves.
      deliver(event);
      publisher.publish(channel, JSON.stringify({ origin, ...event })).catch(options.onBusError);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      await Promise.allSettled([subscriber.quit(), publisher.quit()]);
    },
  };
}
