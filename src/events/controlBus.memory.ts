// The control bus of one instance (no REDIS_URL): a message reaches this instance's listeners only.
import { localListeners, type ControlBus, type ListenerErrorHandler } from './controlBus.js';

export function createMemoryControlBus<T extends object>(onListenerError: ListenerErrorHandler<T>): ControlBus<T> {
  const listeners = localListeners<T>(onListenerError);
  return {
    publish: (topic, message) => listeners.deliver(topic, message),
    subscribe: (topic, listener) => listeners.add(topic, listener),
  };
}
