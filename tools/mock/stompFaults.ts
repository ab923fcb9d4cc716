// The faults a STOMP client may ask the mock for with an `x-mock-fault` header (faultHeader.ts),
// given to the service's session code through its `faults` hook (src/stomp/stompFaults.ts): on
// CONNECT for the whole connection, on SUBSCRIBE for that subscription. `drop-after=k` drops the
// connection right after the k-th MESSAGE (no ERROR frame, no close handshake), `duplicate=k`
// sends the k-th MESSAGE twice (the same frame: same message-id, x-epoch and x-offset), and
// `trim-history` (SUBSCRIBE) reads the history as trimmed away, so a replaying SUBSCRIBE gets
// `x-recovered: false` and then the live messages only, as when the service has dropped them.
import type { ConnectionFaults, MessageFault, PlanLog, StompFaults } from '../../src/index.js';
import { FAULT_HEADER, readFaultHeader, type FaultRequest } from './faultHeader.js';
import type { FaultUses } from './faultUses.js';

/** A plan log whose history is gone: what a replay asks for cannot be recovered. */
const trimmed = (planLog: PlanLog): PlanLog => ({ ...planLog, history: () => Promise.resolve({ recovered: false }) });

/** Messages counted since a CONNECT or SUBSCRIBE, and what that frame asked for. */
interface Counted {
  fault: FaultRequest | null;
  sent: number;
}

function faultOf(counted: Counted | undefined): MessageFault {
  if (!counted?.fault) return { copies: 1, dropAfter: false };
  const { duplicate, dropAfter } = counted.fault;
  return { copies: counted.sent === duplicate ? 2 : 1, dropAfter: counted.sent === dropAfter };
}

function connectionFaults(onConnection: FaultRequest | null, uses: FaultUses): ConnectionFaults {
  const connection: Counted = { fault: onConnection, sent: 0 };
  const subscriptions = new Map<string, Counted>();
  return {
    subscribing(subscribe, planLog) {
      const asked = readFaultHeader(subscribe.headers[FAULT_HEADER], 'SUBSCRIBE');
      if (asked && 'problem' in asked) return asked;
      const fault = asked && uses.take(asked.id, asked.times) ? asked : null;
      subscriptions.set(subscribe.headers.id ?? '', { fault, sent: 0 });
      return fault?.trimHistory ? trimmed(planLog) : planLog;
    },
    delivering(subscriptionId) {
      const subscription = subscriptions.get(subscriptionId);
      connection.sent++;
      if (subscription) subscription.sent++;
      const [ofConnection, ofSubscription] = [faultOf(connection), faultOf(subscription)];
      return {
        copies: Math.max(ofConnection.copies, ofSubscription.copies),
        dropAfter: ofConnection.dropAfter || ofSubscription.dropAfter,
      };
    },
  };
}

export function createMockStompFaults(uses: FaultUses): StompFaults {
  return {
    connecting(connect) {
      const asked = readFaultHeader(connect.headers[FAULT_HEADER], 'CONNECT');
      if (asked && 'problem' in asked) return asked;
      return connectionFaults(asked && uses.take(asked.id, asked.times) ? asked : null, uses);
    },
  };
}
