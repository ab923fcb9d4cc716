// What a chat agent is: it reads the member's message and the current itinerary and decides on at
// most one edit plus a reply. The chat service applies the edit and streams the reply.
import type { DayWithStops } from '../trips/dailyPlanRepository.js';

export type ChatEdit =
  | { kind: 'swap'; dayNumber: number; visitOrderA: number; visitOrderB: number }
  | { kind: 'remove'; dayNumber: number; visitOrder: number }
  | { kind: 'replace'; dayNumber: number; visitOrder: number };

export interface ChatTurn {
  tripPlanId: number;
  region: string;
  content: string;
  /** the stop the message is about, when the client sent one */
  scheduledPlaceId?: number;
  days: DayWithStops[];
}

export interface ChatDecision {
  edit: ChatEdit | null;
  /** the answer when there is no edit, or the preface of the edit's confirmation */
  reply: string;
}

export interface ChatAgent {
  readonly name: string;
  decide(turn: ChatTurn, signal: AbortSignal): Promise<ChatDecision>;
}
