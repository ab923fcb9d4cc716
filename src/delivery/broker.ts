// Delivers messages to user-scoped destinations: a message for member U on `/user/sub/chat/7`
// reaches every live subscription of U to that destination (several tabs, several sessions) and
// nobody else. An interface, so that a distributed implementation can replace the in-process one;
// all process-local delivery state lives behind it. Every message has its place in a plan log
// (planLog.ts), which the MESSAGE frame carries.
import type { LogPosition } from './planLog.js';

export type Delivery = (body: string, position: LogPosition) => void;

export interface Broker {
  /** Delivers to every subscription of `memberId` on `destination`; returns how many received it. */
  publish(memberId: number, destination: string, body: string, position: LogPosition): number;
  /** Returns the function that ends the subscription. */
  subscribe(memberId: number, destination: string, deliver: Delivery): () => void;
  /** Live subscriptions, for diagnostics and benchmarks. */
  size(): number;
}

export function createInProcessBroker(onDeliveryError: (error: unknown) => void): Broker {
  const routes = new Map<string, Set<Delivery>>();
  const keyOf = (memberId: number, destination: string) => `${memberId}\u0000${destination}`;
  let count = 0;
  return {
    publish(memberId, destination, body, position) {
      const subscribers = routes.get(keyOf(memberId, destination));
      if (!subscribers) return 0;
      let delivered = 0;
      for (const deliver of [...subscribers]) {
        try {
          deliver(body, position);
          delivered++;
        } catch (error) {
          onDeliveryError(error);
        }
      }
      return delivered;
    },
    subscribe(memberId, destination, deliver) {
      const key = keyOf(memberId, destination);
      let subscribers = routes.get(key);
      if (!subscribers) {
        subscribers = new Set();
        routes.set(key, subscribers);
      }
      subscribers.add(deliver);
      count++;
      return () => {
        if (subscribers.delete(deliver)) count--;
        if (subscribers.size === 0) routes.delete(key);
      };
    },
    size: () => count,
  };
}
