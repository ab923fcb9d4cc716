// The event bus between HTTP and generation: its events are topics of the control bus
// (controlBus.ts), in memory or across instances, so publishers and consumers never know which.
// A listener runs after the publisher's transaction, never inside it.
import type { components } from '../../generated/internal-events-types.js';
import { createMemoryControlBus } from './controlBus.memory.js';
import type { ControlBus, TopicGuards } from './controlBus.js';

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

/** Any object under one of the events' names: the database has the truth, the listeners read it. */
function isEvent<E extends object>(event: unknown): event is E {
  return typeof event === 'object' && event !== null;
}

/** The events an instance takes from another. */
export const domainEventTopics: TopicGuards<DomainEvents> = {
  tripPlanGenerationRequested: isEvent,
  tripPlanGenerationCancelRequested: isEvent,
};

/** The event bus on `bus`; `onListenerError` is told of a listener that failed. */
export function eventBusOn(bus: ControlBus<DomainEvents>, onListenerError: (error: unknown, name: EventName) => void): EventBus {
  return {
    publish: (name, event) => bus.publish(name, event),
    subscribe: (name, listener) =>
      bus.subscribe(name, (event) => {
        queueMicrotask(() => {
          Promise.resolve()
            .then(() => listener(event))
            .catch((error: unknown) => onListenerError(error, name));
        });
      }),
  };
}

/** An event bus of its own, in this process (tests, benchmarks). */
export function createInProcessEventBus(onListenerError: (error: unknown, name: EventName) => void): EventBus {
  return eventBusOn(createMemoryControlBus<DomainEvents>(onListenerError), onListenerError);
}
