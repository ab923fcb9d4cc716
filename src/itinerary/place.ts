// A place and a stop as the itinerary rules see them. The catalogue's place rows and the saved
// stops carry these fields (and more), so the rules take them as they are.
import type { components } from '../../generated/openapi.js';
import type { Coordinates } from './travel.js';

export type TimeOfDay = components['schemas']['TimeOfDay'];

export interface Place extends Coordinates {
  id: number;
  name: string;
  nameKo: string | null;
  description: string;
  kind: 'SIGHT' | 'RESTAURANT';
  themes: string[];
}

/** A stop of a saved day: its place, when in the day, and the travel from the stop before. */
export interface Stop<P extends Place = Place> {
  id: number;
  visitOrder: number;
  category: TimeOfDay;
  /** minutes from the previous stop; null for the first stop of the day */
  travelTime: number | null;
  /** metres from the previous stop; null for the first stop of the day */
  travelDistance: number | null;
  /** one of Transportation, as stored */
  transportation: string;
  place: P;
}
