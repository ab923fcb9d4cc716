// The words of an offline-planned day: its title (its two most wanted sights) and its markdown, with
// clock times, meals and travel (the shared wording is itinerary/dayMarkdown.ts).
import { longDate, placeLabel, stopCountText, travelText, travelTotalLine } from '../../itinerary/dayMarkdown.js';
import type { Transportation } from '../../itinerary/travel.js';
import type { Visit } from './mealPlacement.js';
import type { RankedSight } from './sightRanking.js';

const TITLE_MAX = 200;

function clockText(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

function slotText(visit: Visit): string {
  if (visit.meal === 'lunch') return 'Lunch';
  if (visit.meal === 'dinner') return 'Dinner';
  return visit.category === 'MORNING' ? 'Morning' : visit.category === 'AFTERNOON' ? 'Afternoon' : 'Evening';
}

function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

export function dayTitle(dayNumber: number, sights: readonly RankedSight[], visits: readonly Visit[]): string {
  // The two most wanted sights, named in the order they are visited.
  const highlights = new Set(
    [...sights]
      .sort((a, b) => a.rank - b.rank)
      .slice(0, 2)
      .map((s) => s.place),
  );
  const names = visits.filter((v) => highlights.has(v.place)).map((v) => v.place.name);
  // "Donggung Palace and Wolji Pond and Cheomseongdae" would read as three places.
  const joiner = names.some((name) => / and /i.test(name)) ? ', ' : ' and ';
  return clip(names.length > 0 ? `Day ${dayNumber}: ${names.join(joiner)}` : `Day ${dayNumber}`, TITLE_MAX);
}

export function dayDescription(title: string, date: string, visits: readonly Visit[], mode: Transportation): string {
  const lines = [`## ${title}`, '', `_${longDate(date)} · ${stopCountText(visits.length)}_`, ''];
  visits.forEach((visit, i) => {
    lines.push(`${i + 1}. ${clockText(visit.start)} · ${slotText(visit)}: ${placeLabel(visit.place)}. ${visit.place.description}`);
    const previous = visits[i - 1];
    if (previous && visit.travel) lines.push(`   - From ${previous.place.name}: ${travelText(visit.travel, mode)}.`);
  });
  lines.push(...travelTotalLine(visits.flatMap((v) => (v.travel ? [v.travel] : []))));
  return lines.join('\n');
}
