// Saves days with stops for a plan through the repository the generation worker uses, for tests
// that need an itinerary without running a planner.
import type { DatabasePort } from '../../src/db/databasePort.js';
import { insertDay } from '../../src/trips/dailyPlanRepository.js';

const spots = [
  { key: 'test-haeundae', name: 'Haeundae Beach', latitude: 35.1587, longitude: 129.1604 },
  { key: 'test-dongbaek', name: 'Dongbaekseom Island', latitude: 35.1531, longitude: 129.1519 },
  { key: 'test-gwangalli', name: 'Gwangalli Beach', latitude: 35.1532, longitude: 129.1187 },
  { key: 'test-jagalchi', name: 'Jagalchi Market', latitude: 35.0966, longitude: 129.0306 },
];

export async function seedItinerary(db: DatabasePort, tripPlanId: number, startDate: string, dayCount: number): Promise<void> {
  const { places } = db.t;
  const placeIds: number[] = [];
  for (const spot of spots) {
    const [row] = await db.run((q) =>
      q
        .insert(places)
        .values({
          ...spot,
          region: 'busan',
          address: `${spot.name}, Busan`,
          description: `${spot.name} (test fixture).`,
          isMustVisit: false,
          themes: ['FAMOUS_SPOT'],
          kind: 'SIGHT',
          visitMinutes: 60,
        })
        .onConflictDoUpdate({ target: places.key, set: { name: spot.name } })
        .returning({ id: places.id }),
    );
    placeIds.push(row!.id);
  }
  for (let day = 1; day <= dayCount; day++) {
    const date = new Date(Date.parse(`${startDate}T00:00:00Z`) + (day - 1) * 86_400_000).toISOString().slice(0, 10);
    await insertDay(
      db,
      tripPlanId,
      {
        dayNumber: day,
        date,
        title: `Day ${day}`,
        description: `### Day ${day}\nA test day.`,
        stops: placeIds.slice(0, 3).map((placeId, i) => ({
          category: (['MORNING', 'AFTERNOON', 'EVENING'] as const)[i]!,
          travelTime: i === 0 ? null : 10,
          travelDistance: i === 0 ? null : 1000,
          placeId,
        })),
      },
      'PUBLIC_TRANSIT',
    );
  }
}
