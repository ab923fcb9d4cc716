// The event bus between HTTP and generation. An interface with an in-process implementation (the
// embedded default); a distributed one must drop in without touching publishers or consumers.
import type { components } from '../../generated/internal-events-types.js';

/** specs/internal/events.asyncapi.yaml: an internal event, not part of the published asyncapi.yaml */
export type TripPlanGenerationRequestedEvent = components['schemas']['TripPlanGenerationRequestedEvent'];

export interface DomainEvents {
  tripPlanGenerationRequested: TripPlanGenerationRequestedEvent;
  /** `run` and `attempt`: the generation run the cancel or delete ended (the plan log's fencing token) */
  tripPlanGenerationCancelRequested: { tripPlanId: number; memberId: number; chatRoomId: number; reason: 'cancel' | 'delete'; run: number; attempt: number };
}

export type EventName = keyof DomainEvents;
export type EventListener<E extends EventName> = (event: DomainEvents[E]) => void | Promise<void>;

export interface EventBus {
  publish<E extends EventName>(name: E, event: DomainEvents[E]): void;
  subscribe<E extends EventName>(name: E, listener: EventListener<E>): () => void;
}

export function createInProcessEventBus(onListenerError: (error: unknown, name: EventName) => void): EventBus {
  const listeners = new Map<EventName, Set<EventListener<EventName>>>();
  return {
    publish(name, event) {
      for (const listener of listeners.get(name) ?? []) {
        // Listeners run after the publisher's transaction, never inside it.
        queueMicrotask(() => {
          Promise.resolve()
            .then(() => (listener as EventListener<typeof name>)(event))
            .catch((error: unknown) => onListenerError(error, name));
        });
      }
    },
    subscribe(name, listener) {
      const set = listeners.get(name) ?? new Set();
      listeners.set(name, set);
      set.add(listener as EventListener<EventName>);
      return () => set.delete(listener as EventListener<EventName>);
    },
  };
}
