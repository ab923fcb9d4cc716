// One day of the itinerary as a block of text a person reads in a terminal.
import type { DailyPlan } from '../client/tripApi.js';

type Stop = DailyPlan['scheduledPlaces'][number];

const transportWords: Record<Stop['transportation'], string> = {
  NONE: '',
  WALKING: 'on foot',
  PUBLIC_TRANSIT: 'by public transit',
  CAR: 'by car',
};

function travelFromPrevious(stop: Stop): string {
  if (stop.travelTime === null && stop.travelDistance === null) return 'start of the day';
  const parts = [
    stop.travelTime === null ? null : `${stop.travelTime} min`,
    stop.travelDistance === null ? null : stop.travelDistance >= 1000 ? `${(stop.travelDistance / 1000).toFixed(1)} km` : `${stop.travelDistance} m`,
  ].filter(Boolean);
  return `${parts.join(', ')} ${transportWords[stop.transportation]}`.trim();
}

export function dayBlock(day: DailyPlan): string {
  const nameWidth = Math.max(...day.scheduledPlaces.map((s) => s.place.name.length), 4);
  const stops = [...day.scheduledPlaces]
    .sort((a, b) => a.visitOrder - b.visitOrder)
    .map((s) => `  ${String(s.visitOrder).padStart(2)}. ${s.category.padEnd(9)}  ${s.place.name.padEnd(nameWidth)}  ${travelFromPrevious(s)}`);
  return [`Day ${day.dayNumber} · ${day.date} · ${day.title}`, ...(stops.length > 0 ? stops : ['  (no stops)'])].join('\n');
}
