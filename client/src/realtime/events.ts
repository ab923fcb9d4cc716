// A typed event emitter: listeners by event name, each told in the order it was added. A listener
// that throws does not keep the others from hearing the event.
export interface Emitter<M> {
  on<K extends keyof M>(name: K, listener: (event: M[K]) => void): () => void;
  emit<K extends keyof M>(name: K, event: M[K]): void;
}

export function createEmitter<M>(onListenerError: (error: unknown) => void): Emitter<M> {
  const listeners = new Map<keyof M, Set<(event: never) => void>>();
  return {
    on(name, listener) {
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      set.add(listener);
      return () => void set.delete(listener);
    },
    emit(name, event) {
      for (const listener of [...(listeners.get(name) ?? [])]) {
        try {
          (listener as (event: M[typeof name]) => void)(event);
        } catch (error) {
          onListenerError(error);
        }
      }
    },
  };
}
