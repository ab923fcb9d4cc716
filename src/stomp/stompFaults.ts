// Faults a stand-in for the service injects into its STOMP connections when a client asks for them,
// so client teams can test their reconnects and resumes: drop the connection after a message, send
// a message twice, read a trimmed history. The service injects none: it passes no `faults` to its
// sessions (StompSessionDeps), so the headers that ask for them are, as every header asyncapi.yaml
// does not document, ignored there. The mock (tools/mock) passes them.
import type { PlanLog } from '../delivery/planLog.js';
import type { StompFrame } from './stompFrame.js';

/** Why a frame's request for a fault cannot be honoured: the session answers ERROR WS102 with it. */
export interface FaultProblem {
  problem: string;
}

/** What happens to one MESSAGE frame. */
export interface MessageFault {
  /** how many times the frame is sent, the same frame each time (1: as usual) */
  copies: number;
  /** the connection is dropped right after it: the socket ends with no ERROR frame and no close handshake */
  dropAfter: boolean;
}

/** The faults of one connection. */
export interface ConnectionFaults {
  /** a SUBSCRIBE about to be served: the plan log its history is read from (`planLog`, unless the frame asks for another) */
  subscribing(subscribe: StompFrame, planLog: PlanLog): PlanLog | FaultProblem;
  /** a MESSAGE about to be sent for the subscription whose id is `subscriptionId` */
  delivering(subscriptionId: string): MessageFault;
}

export interface StompFaults {
  /** a CONNECT that authenticated: the faults of its connection, from the frame */
  connecting(connect: StompFrame): ConnectionFaults | FaultProblem;
}
