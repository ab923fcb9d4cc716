// The markdown of a day (DailyPlanResponse.description): shared wording for the offline planner and
// for days rewritten by an edit (swap, replace, remove), so an edited day never describes the old order.
import type { Place, Stop } from './place.js';
import type { Transportation } from './travel.js';

export function durationText(minutes: number): string {
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function distanceText(metres: number): string {
  return metres < 1000 ? `${metres} m` : `${(metres / 1000).toFixed(1)} km`;
}

export function modeText(mode: Transportation, metres: number): string {
  // travelBetween times anything under 1 km as a walk, so say so.
  if (mode === 'WALKING' || metres < 1000) return 'on foot';
  return mode === 'CAR' ? 'by car' : 'by public transit';
}

export function travelText(travel: { distanceMetres: number; minutes: number }, mode: Transportation): string {
  return `${durationText(travel.minutes)} ${modeText(mode, travel.distanceMetres)}, ${distanceText(travel.distanceMetres)}`;
}

const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export function longDate(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  return `${weekdays[d.getUTCDay()]}, ${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

export function placeLabel(place: Place): string {
  return place.nameKo ? `**${place.name}** (${place.nameKo})` : `**${place.name}**`;
}

export function stopCountText(count: number): string {
  return `${count} ${count === 1 ? 'stop' : 'stops'}`;
}

export function travelTotalLine(legs: { minutes: number; distanceMetres: number }[]): string[] {
  if (legs.length === 0) return [];
  const minutes = legs.reduce((sum, leg) => sum + leg.minutes, 0);
  const metres = legs.reduce((sum, leg) => sum + leg.distanceMetres, 0);
  return ['', `Travel today: ${durationText(minutes)} in all, ${distanceText(metres)}.`];
}

const slotNames = { MORNING: 'Morning', AFTERNOON: 'Afternoon', EVENING: 'Evening' } as const;

/** An edited day: its stops in their new order, with time of day and travel, without clock times. */
export function editedDayMarkdown(title: string, date: string, stops: readonly Stop[]): string {
  const lines = [`## ${title}`, '', `_${longDate(date)} · ${stopCountText(stops.length)} (edited)_`, ''];
  stops.forEach((stop, i) => {
    const meal = stop.place.kind === 'RESTAURANT' ? (stop.category === 'EVENING' ? 'Dinner' : 'Lunch') : slotNames[stop.category];
    lines.push(`${i + 1}. ${meal}: ${placeLabel(stop.place)}. ${stop.place.description}`);
    const previous = stops[i - 1];
    if (previous && stop.travelTime !== null && stop.travelDistance !== null) {
      lines.push(
        `   - From ${previous.place.name}: ${travelText({ minutes: stop.travelTime, distanceMetres: stop.travelDistance }, stop.transportation as Transportation)}.`,
      );
    }
  });
  lines.push(
    ...travelTotalLine(
      stops.flatMap((s) => (s.travelTime !== null && s.travelDistance !== null ? [{ minutes: s.travelTime, distanceMetres: s.travelDistance }] : [])),
    ),
  );
  return lines.join('\n');
}
