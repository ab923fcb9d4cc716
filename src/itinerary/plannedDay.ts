// A day as a planner decides it, before it is saved: what planners yield and what the day
// repository stores. Visit orders follow from the order of the stops.
import type { TimeOfDay } from './place.js';

export interface PlannedStop {
  placeId: number;
  category: TimeOfDay;
  /** minutes from the previous stop; null for the first stop of the day */
  travelTime: number | null;
  /** metres from the previous stop; null for the first stop of the day */
  travelDistance: number | null;
}

export interface PlannedDay {
  dayNumber: number;
  date: string;
  title: string;
  /** markdown */
  description: string;
  /** in visit order */
  stops: PlannedStop[];
}
