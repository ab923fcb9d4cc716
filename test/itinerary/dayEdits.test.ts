// The day-edit rules on their own: no database, no server; stops keep their ids and slots, visit
// orders are renumbered, travel is recomputed between the new neighbours.
import { describe, expect, it } from 'vitest';
import { editSummary, pickReplacement, removeStop, replaceStop, resequence, swapStops, type DayEdit } from '../../src/itinerary/dayEdits.js';
import type { Place, Stop } from '../../src/itinerary/place.js';

const place = (id: number, name: string, latitude: number, longitude: number, extra: Partial<Place> = {}): Place => ({
  id,
  name,
  nameKo: null,
  description: `${name}.`,
  kind: 'SIGHT',
  themes: ['FAMOUS_SPOT'],
  latitude,
  longitude,
  ...extra,
});
const haeundae = place(1, 'Haeundae Beach', 35.1587, 129.1604);
const dongbaek = place(2, 'Dongbaekseom Island', 35.1531, 129.1519);
const jagalchi = place(3, 'Jagalchi Market', 35.0966, 129.0306);
const stops: Stop[] = [haeundae, dongbaek, jagalchi].map((p, i) => ({
  id: 10 + i,
  visitOrder: i + 1,
  category: (['MORNING', 'AFTERNOON', 'EVENING'] as const)[i]!,
  travelTime: null,
  travelDistance: null,
  transportation: 'CAR',
  place: p,
}));

describe('day edits', () => {
  it('swap exchanges places; the stops keep their ids, and travel follows the new order', () => {
    const rows = resequence(swapStops(stops, 0, 2), 'CAR');
    expect(rows.map((r) => [r.id, r.visitOrder, r.placeId])).toEqual([
      [10, 1, 3],
      [11, 2, 2],
      [12, 3, 1],
    ]);
    expect(rows[0]).toMatchObject({ travelTime: null, travelDistance: null });
    // Jagalchi to Dongbaekseom is about 13 km in a straight line; Dongbaekseom to Haeundae under 1 km.
    expect(rows[1]!.travelDistance).toBeGreaterThan(13_000);
    expect(rows[2]!.travelDistance).toBeLessThan(1_500);
  });

  it('remove drops the stop and renumbers the rest from 1', () => {
    expect(resequence(removeStop(stops, 1), 'CAR').map((r) => [r.id, r.visitOrder, r.placeId])).toEqual([
      [10, 1, 1],
      [12, 2, 3],
    ]);
  });

  it('replace puts another place in the same stop', () => {
    const gwangalli = place(4, 'Gwangalli Beach', 35.1532, 129.1187);
    expect(resequence(replaceStop(stops, 2, gwangalli), 'CAR').map((r) => [r.id, r.placeId])).toEqual([
      [10, 1],
      [11, 2],
      [12, 4],
    ]);
  });

  it('the replacement is the nearest free place of the same kind, a shared theme counting as 3 km nearer', () => {
    const near = place(5, 'Near', 35.153, 129.15, { themes: ['SHOPPING'] });
    const themedFurther = place(6, 'Themed', 35.153, 129.13, { themes: ['HEALING'] });
    const restaurant = place(7, 'Restaurant', 35.1531, 129.1519, { kind: 'RESTAURANT' });
    expect(pickReplacement(dongbaek, [near, themedFurther, restaurant], [])?.id).toBe(5);
    expect(pickReplacement(dongbaek, [near, themedFurther, restaurant], ['HEALING'])?.id).toBe(6);
    expect(pickReplacement(dongbaek, [restaurant], [])).toBeUndefined();
  });

  it('names the stops as they were in the sentence that announces the edit', () => {
    const swap: DayEdit = { kind: 'swap', dayNumber: 1, visitOrderA: 1, visitOrderB: 3 };
    expect(editSummary(swap, stops)).toBe('Swapped stop 1 (Haeundae Beach) and stop 3 (Jagalchi Market) on day 1.');
    expect(editSummary({ kind: 'remove', dayNumber: 1, visitOrder: 2 }, stops)).toBe('Removed stop 2 (Dongbaekseom Island) from day 1.');
    expect(editSummary({ kind: 'replace', dayNumber: 1, visitOrder: 2 }, stops, jagalchi)).toBe(
      'Replaced stop 2 (Dongbaekseom Island) on day 1 with Jagalchi Market: Jagalchi Market.',
    );
  });
});
