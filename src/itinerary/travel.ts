// Travel distance and time between two stops, from coordinates and the transport mode. Straight-line
// distance is stretched by a detour factor per mode, then divided by a typical door-to-door speed.
import type { components } from '../../generated/openapi.js';

export type Transportation = components['schemas']['Transportation'];

export interface Coordinates {
  latitude: number;
  longitude: number;
}

const EARTH_RADIUS_M = 6_371_000;

export function haversineMetres(a: Coordinates, b: Coordinates): number {
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const dLat = rad(b.latitude - a.latitude);
  const dLon = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

// km/h door to door, and how much longer than the straight line the real route is.
const modes: Record<Transportation, { speedKmh: number; detour: number; overheadMin: number }> = {
  WALKING: { speedKmh: 4.5, detour: 1.3, overheadMin: 0 },
  PUBLIC_TRANSIT: { speedKmh: 20, detour: 1.4, overheadMin: 8 },
  CAR: { speedKmh: 35, detour: 1.3, overheadMin: 5 },
  // NONE: the traveller did not say; assume public transit for the estimate.
  NONE: { speedKmh: 20, detour: 1.4, overheadMin: 8 },
};

export function travelBetween(from: Coordinates, to: Coordinates, mode: Transportation): { distanceMetres: number; minutes: number } {
  const { speedKmh, detour, overheadMin } = modes[mode];
  const distanceMetres = Math.round(haversineMetres(from, to) * detour);
  // Under 1 km everybody walks, whatever the mode.
  const minutes =
    distanceMetres < 1000 ? Math.max(1, Math.round((distanceMetres / 1000 / 4.5) * 60)) : Math.round((distanceMetres / 1000 / speedKmh) * 60 + overheadMin);
  return { distanceMetres, minutes: Math.min(minutes, 1440) };
}
