// What a chat agent is: it reads the member's message and the current itinerary and decides on at
// most one edit plus a reply. The chat service applies the edit and streams the reply.
import type { DayEdit } from '../itinerary/dayEdits.js';
import type { DayWithStops } from '../trips/dailyPlanRepository.js';

export interface ChatTurn {
  tripPlanId: number;
  region: string;
  content: string;
  /** the stop the message is about, when the client sent one */
  scheduledPlaceId?: number;
  days: DayWithStops[];
}

export interface ChatDecision {
  edit: DayEdit | null;
  /** the answer when there is no edit, or the preface of the edit's confirmation */
  reply: string;
}

export interface ChatAgent {
  readonly name: string;
  decide(turn: ChatTurn, signal: AbortSignal): Promise<ChatDecision>;
}
