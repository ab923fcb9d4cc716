// "This auth session has ended" (logout, refresh-token reuse), announced to whoever holds live
// connections of it, so that they close at once instead of at their next periodic check. An
// interface: the in-process implementation reaches this instance only; one across instances (e.g.
// Redis pub/sub) must drop in without touching the auth service or the STOMP endpoint.
export type RevocationReason = 'logout' | 'refresh-token-reuse';

export interface SessionRevoked {
  sessionId: string;
  reason: RevocationReason;
}

export interface SessionRevocations {
  /** announces a revocation that is already committed to the database */
  publish(event: SessionRevoked): void;
  /** returns the function that stops listening */
  subscribe(listener: (event: SessionRevoked) => void): () => void;
}

export function createInProcessSessionRevocations(onListenerError: (error: unknown) => void): SessionRevocations {
  const listeners = new Set<(event: SessionRevoked) => void>();
  return {
    publish(event) {
      // Synchronous: the connections are closed before the logout response leaves.
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch (error) {
          onListenerError(error);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
