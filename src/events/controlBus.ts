// The control bus: small messages that tell the parts of the service, on this instance and on every
// other one, that something happened (a generation was asked for or cancelled, a session ended).
// Typed by a map of topics to the message each carries; its users declare their own topics (the
// event bus, eventBus.ts; the session revocations, auth/sessionRevocations.ts). In memory it reaches
// this instance (controlBus.memory.ts); with REDIS_URL every instance (controlBus.redis.ts).
// Delivery to other instances is at most once: what a message says is in the database too, and
// each user has a check of its own that finds what a lost message did not tell.

/** A listener of one topic. */
export type ControlListener<M> = (message: M) => void;

/** `T`: each topic and the message it carries. */
export interface ControlBus<T extends object> {
  /**
   * Hands `message` to this instance's listeners of `topic` before it returns (a listener that
   * throws is reported, the others still get it), then sends it to the other instances.
   */
  publish<K extends keyof T & string>(topic: K, message: T[K]): void;
  /** returns the function that stops listening */
  subscribe<K extends keyof T & string>(topic: K, listener: ControlListener<T[K]>): () => void;
}

/** What a message of each topic must be, checked on one that comes from another instance. */
export type TopicGuards<T extends object> = { [K in keyof T & string]: (message: unknown) => message is T[K] };

export type ListenerErrorHandler<T extends object> = (error: unknown, topic: keyof T & string) => void;

/** This instance's listeners of a bus, by topic. */
export interface LocalListeners<T extends object> {
  deliver<K extends keyof T & string>(topic: K, message: T[K]): void;
  add<K extends keyof T & string>(topic: K, listener: ControlListener<T[K]>): () => void;
  clear(): void;
}

export function localListeners<T extends object>(onListenerError: ListenerErrorHandler<T>): LocalListeners<T> {
  const byTopic = new Map<keyof T & string, Set<ControlListener<never>>>();
  return {
    deliver(topic, message) {
      // A copy: a listener may stop listening (or start) while it is told.
      for (const listener of [...(byTopic.get(topic) ?? [])]) {
        try {
          (listener as ControlListener<typeof message>)(message);
        } catch (error) {
          onListenerError(error, topic);
        }
      }
    },
    add(topic, listener) {
      const set = byTopic.get(topic) ?? new Set();
      byTopic.set(topic, set);
      set.add(listener);
      return () => void set.delete(listener);
    },
    clear: () => byTopic.clear(),
  };
}
