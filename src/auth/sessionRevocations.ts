// "This auth session has ended" (logout, refresh-token reuse), announced to whoever holds live
// connections of it, so that they close at once instead of at their next periodic check. A topic of
// the control bus (events/controlBus.ts): in memory it reaches this instance, with REDIS_URL every
// instance (at most once: each connection's periodic session check against the database still
// ends what a lost message did not).
import type { ControlBus, TopicGuards } from '../events/controlBus.js';

export type RevocationReason = 'logout' | 'refresh-token-reuse';

export interface SessionRevoked {
  sessionId: string;
  reason: RevocationReason;
}

export interface RevocationTopics {
  sessionRevoked: SessionRevoked;
}

export interface SessionRevocations {
  /** announces a revocation that is already committed to the database */
  publish(event: SessionRevoked): void;
  /** returns the function that stops listening */
  subscribe(listener: (event: SessionRevoked) => void): () => void;
}

const REASONS: ReadonlySet<unknown> = new Set<RevocationReason>(['logout', 'refresh-token-reuse']);

export const revocationTopics: TopicGuards<RevocationTopics> = {
  sessionRevoked: (message): message is SessionRevoked =>
    typeof message === 'object' &&
    message !== null &&
    typeof (message as Partial<SessionRevoked>).sessionId === 'string' &&
    REASONS.has((message as Partial<SessionRevoked>).reason),
};

export function sessionRevocationsOn(bus: ControlBus<RevocationTopics>): SessionRevocations {
  return {
    // Synchronous on this instance: its connections close before the logout response leaves.
    publish: (event) => bus.publish('sessionRevoked', event),
    subscribe: (listener) => bus.subscribe('sessionRevoked', listener),
  };
}
