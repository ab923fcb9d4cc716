// What a planner is: given the trip conditions, it decides the itinerary day by day and writes a
// summary of each day for the chat. The generation worker saves and publishes; planners only plan.
import type { components } from '../../generated/openapi.js';
import type { PlannedDay } from '../itinerary/plannedDay.js';

type Schemas = components['schemas'];

export interface PlanRequest {
  tripPlanId: number;
  memberId: number;
  region: string;
  startDate: string;
  duration: number;
  themes: Schemas['PlaceThemeType'][];
  peopleCount: number;
  transportation: Schemas['Transportation'];
}

export interface Planner {
  readonly name: string;
  /** Yields the days in order, each as soon as it is decided. Throws PlannerError on failure. */
  plan(request: PlanRequest, signal: AbortSignal): AsyncIterable<PlannedDay>;
  /** The day's chat summary in chunks; their concatenation is the full text. */
  summarize(day: PlannedDay, request: PlanRequest, signal: AbortSignal): AsyncIterable<string>;
}

/** A planner failure the user can be told about (sent as AI002 with this message). */
export class PlannerError extends Error {}
