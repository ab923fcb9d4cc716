// The offline planner: itineraries that are complete, geographic, never repeat a place, respect the
// themes, read well, and stream and stop as the generation worker expects.
import { and, eq, notInArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteDatabasePort } from '../../src/composition/openDatabase.js';
import { knownRegionNames, resolveRegion } from '../../src/catalogue/placeCatalogue.js';
import { placesOfRegion, syncCatalogue, type PlaceRow } from '../../src/catalogue/placeRepository.js';
import { createOfflinePlanner } from '../../src/generation/offline/offlinePlanner.js';
import { PlannerError, type PlanRequest } from '../../src/generation/planner.js';
import type { PlannedDay } from '../../src/itinerary/plannedDay.js';
import { haversineMetres } from '../../src/itinerary/travel.js';

const db = openSqliteDatabasePort(':memory:');
await syncCatalogue(db);
afterAll(() => db.close());

const planner = createOfflinePlanner({ db, delayMs: 0 });
const placeById = new Map((await db.run((q) => q.select().from(db.t.places).execute())).map((row) => [row.id, row]));
const placeOf = (id: number): PlaceRow => placeById.get(id)!;

const themes: PlanRequest['themes'] = ['FAMOUS_SPOT', 'CULTURE_ART', 'HEALING', 'RESTAURANT'];

function request(overrides: Partial<PlanRequest> = {}): PlanRequest {
  return {
    tripPlanId: 1,
    memberId: 1,
    region: 'Busan',
    startDate: '2026-12-30',
    duration: 3,
    themes,
    peopleCount: 2,
    transportation: 'PUBLIC_TRANSIT',
    ...overrides,
  };
}

async function planDays(req: PlanRequest, p = planner, signal = new AbortController().signal): Promise<PlannedDay[]> {
  const days: PlannedDay[] = [];
  for await (const day of p.plan(req, signal)) days.push(day);
  return days;
}

function mean(values: number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

describe.each(['Busan', 'Seoul', 'Jeju', 'Jeonju', 'Gyeongju', 'Gangneung'])('a 3-day trip in %s', (region) => {
  const req = request({ region });
  const regionId = resolveRegion(region)!;

  it('has 3 consecutive dated days of 4–6 stops with plausible travel', async () => {
    const days = await planDays(req);
    expect(days.map((d) => d.dayNumber)).toEqual([1, 2, 3]);
    expect(days.map((d) => d.date)).toEqual(['2026-12-30', '2026-12-31', '2027-01-01']);
    for (const day of days) {
      expect(day.stops.length).toBeGreaterThanOrEqual(4);
      expect(day.stops.length).toBeLessThanOrEqual(6);
      expect(day.stops[0]!.travelTime).toBeNull();
      expect(day.stops[0]!.travelDistance).toBeNull();
      for (const stop of day.stops.slice(1)) {
        expect(stop.travelDistance).toBeGreaterThan(0);
        expect(stop.travelDistance).toBeLessThan(100_000);
        expect(stop.travelTime).toBeGreaterThanOrEqual(1);
        expect(stop.travelTime).toBeLessThan(300);
      }
      for (const stop of day.stops) expect(placeOf(stop.placeId).region).toBe(regionId);
    }
  });

  it('has lunch and dinner at restaurants between morning, afternoon and evening sights', async () => {
    for (const day of await planDays(req)) {
      const kinds = day.stops.map((s) => placeOf(s.placeId).kind);
      const lunch = kinds.indexOf('RESTAURANT');
      const dinner = kinds.lastIndexOf('RESTAURANT');
      expect(kinds.filter((k) => k === 'RESTAURANT')).toHaveLength(2);
      expect(lunch).toBeGreaterThanOrEqual(1);
      expect(dinner).toBeGreaterThan(lunch + 1);
      day.stops.forEach((stop, i) => {
        const expected = i < lunch ? 'MORNING' : i === lunch ? 'AFTERNOON' : i < dinner ? 'AFTERNOON' : 'EVENING';
        expect(stop.category, `${day.title} stop ${i + 1}`).toBe(expected);
      });
    }
  });

  it('never repeats a place and mostly picks sights with a requested theme', async () => {
    const days = await planDays(req);
    const ids = days.flatMap((d) => d.stops.map((s) => s.placeId));
    expect(new Set(ids).size).toBe(ids.length);
    const wanted = new Set<string>(themes);
    const fits = (place: PlaceRow) => place.kind === 'SIGHT' && place.themes.some((t) => wanted.has(t));
    const sights = ids.map(placeOf).filter((p) => p.kind === 'SIGHT');
    const fitting = sights.filter(fits);
    const available = (await placesOfRegion(db, regionId)).filter(fits);
    // Every region has enough fitting sights for three days, so every sight should fit.
    expect(available.length).toBeGreaterThanOrEqual(sights.length);
    expect(fitting.length).toBe(sights.length);
  });

  it('orders the sights of each day by nearest neighbour from the first sight', async () => {
    for (const day of await planDays(req)) {
      const sights = day.stops.map((s) => placeOf(s.placeId)).filter((p) => p.kind === 'SIGHT');
      for (let i = 0; i + 1 < sights.length; i++) {
        const rest = sights.slice(i + 1);
        const nearest = Math.min(...rest.map((p) => haversineMetres(sights[i]!, p)));
        expect(haversineMetres(sights[i]!, sights[i + 1]!)).toBe(nearest);
      }
    }
  });

  it('writes a title and a markdown description naming every stop, its slot and its travel', async () => {
    for (const day of await planDays(req)) {
      expect(day.title.startsWith(`Day ${day.dayNumber}: `)).toBe(true);
      expect(day.title.length).toBeLessThanOrEqual(200);
      expect(day.description.length).toBeLessThanOrEqual(20_000);
      expect(day.description.startsWith(`## ${day.title}\n`)).toBe(true);
      for (const stop of day.stops) expect(day.description).toContain(`**${placeOf(stop.placeId).name}**`);
      expect(day.description).toMatch(/· Lunch: /);
      expect(day.description).toMatch(/· Dinner: /);
      expect(day.description).toMatch(/· Morning: /);
      const travelLines = day.description.split('\n').filter((line) => line.startsWith('   - From '));
      expect(travelLines).toHaveLength(day.stops.length - 1);
      for (const line of travelLines) expect(line).toMatch(/: (\d+ h )?\d+ min (by public transit|on foot), \d+(\.\d)? k?m\.$/);
    }
  });

  it('is deterministic', async () => {
    expect(await planDays(req)).toEqual(await planDays(req));
  });
});

describe('geography', () => {
  it.each(['Jeju', 'Seoul'])('stops of one day in %s are closer to each other than to stops of other days', async (region) => {
    const days = await planDays(request({ region, duration: 4, themes: ['SNS_HOTSPOT', 'HEALING', 'CULTURE_ART'] }));
    const stops = days.flatMap((day) => day.stops.map((s) => ({ day: day.dayNumber, place: placeOf(s.placeId) })));
    const sameDay: number[] = [];
    const otherDay: number[] = [];
    for (let i = 0; i < stops.length; i++) {
      for (let j = i + 1; j < stops.length; j++) {
        (stops[i]!.day === stops[j]!.day ? sameDay : otherDay).push(haversineMetres(stops[i]!.place, stops[j]!.place));
      }
    }
    expect(mean(sameDay)).toBeLessThan(mean(otherDay) * 0.75);
  });
});

describe('long trips', () => {
  it('a 30-day trip in Jeonju fills every day without repeating a place', async () => {
    const days = await planDays(request({ region: 'Jeonju', duration: 30, startDate: '2027-02-01' }));
    expect(days).toHaveLength(30);
    expect(days[29]!.date).toBe('2027-03-02');
    const ids = days.flatMap((d) => d.stops.map((s) => s.placeId));
    expect(new Set(ids).size).toBe(ids.length);
    for (const day of days) {
      expect(day.stops.length).toBeGreaterThanOrEqual(1);
      expect(day.stops[0]!.travelTime).toBeNull();
      expect(day.stops.some((s) => placeOf(s.placeId).kind === 'SIGHT')).toBe(true);
      expect(day.title).toMatch(/^Day \d+: /);
    }
    // Once the themed sights run out the rest of the catalogue is used rather than repeating.
    expect(ids.length).toBeGreaterThan((await placesOfRegion(db, 'jeonju')).filter((p) => p.kind === 'SIGHT').length);
  });

  it('a trip longer than the catalogue can fill fails with a PlannerError that says so', async () => {
    const small = openSqliteDatabasePort(':memory:');
    try {
      await syncCatalogue(small);
      const keep = (await placesOfRegion(small, 'jeonju'))
        .filter((p) => p.kind === 'SIGHT')
        .slice(0, 5)
        .map((p) => p.key);
      const { places } = small.t;
      await small.run((q) =>
        q
          .delete(places)
          .where(and(eq(places.region, 'jeonju'), eq(places.kind, 'SIGHT'), notInArray(places.key, keep)))
          .returning({ id: places.id }),
      );
      const smallPlanner = createOfflinePlanner({ db: small, delayMs: 0 });
      const attempt = planDays(request({ region: 'Jeonju', duration: 6 }), smallPlanner);
      await expect(attempt).rejects.toBeInstanceOf(PlannerError);
      await expect(attempt).rejects.toThrow(/6-day trip is too long for our Jeonju catalogue.*at most 5 days/);
      expect(await planDays(request({ region: 'Jeonju', duration: 5 }), smallPlanner)).toHaveLength(5);
    } finally {
      await small.close();
    }
  });
});

describe('regions', () => {
  it('an unknown region fails with a PlannerError naming the known regions', async () => {
    const attempt = planDays(request({ region: 'Atlantis' }));
    await expect(attempt).rejects.toBeInstanceOf(PlannerError);
    const error = (await attempt.then(
      () => undefined,
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toContain('Atlantis');
    for (const name of knownRegionNames()) expect(error.message).toContain(name);
  });

  it('a Korean region name plans the same trip as the English one', async () => {
    expect(await planDays(request({ region: '부산' }))).toEqual(await planDays(request({ region: 'Busan' })));
  });
});

describe('travel modes', () => {
  it('the same two places take longer on foot than by car', async () => {
    const [walking, car] = await Promise.all([planDays(request({ transportation: 'WALKING' })), planDays(request({ transportation: 'CAR' }))]);
    const legs = (days: PlannedDay[]) => new Map(days.flatMap((d) => d.stops.slice(1).map((s, i) => [`${d.stops[i]!.placeId}>${s.placeId}`, s] as const)));
    const carLegs = legs(car);
    const shared = [...legs(walking)].filter(([pair, stop]) => carLegs.has(pair) && stop.travelDistance! >= 1000);
    expect(shared.length).toBeGreaterThan(0);
    for (const [pair, stop] of shared) {
      expect(stop.travelDistance).toBe(carLegs.get(pair)!.travelDistance);
      expect(stop.travelTime!).toBeGreaterThan(carLegs.get(pair)!.travelTime!);
    }
  });

  it('the description names the mode', async () => {
    const [day] = await planDays(request({ transportation: 'CAR', duration: 1 }));
    expect(day!.description).toMatch(/min by car, \d/);
  });
});

describe('streaming', () => {
  it('summarize yields chunks of about chunkSize that concatenate to the description', async () => {
    const [day] = await planDays(request());
    const chunks: string[] = [];
    for await (const chunk of createOfflinePlanner({ db, delayMs: 0, chunkSize: 40 }).summarize(day!, request(), new AbortController().signal))
      chunks.push(chunk);
    expect(chunks.join('')).toBe(day!.description);
    expect(chunks.length).toBeGreaterThan(10);
    expect(chunks.every((c) => c.length > 0 && c.length <= 40)).toBe(true);
    // Cuts fall after whitespace wherever the text allows it.
    expect(chunks.slice(0, -1).filter((c) => /\s$/.test(c)).length).toBeGreaterThan(chunks.length * 0.8);
  });

  it('summarize never splits a surrogate pair', async () => {
    const description = `## Day 1\n${'🌊🏯'.repeat(20)}x${'가🍜'.repeat(15)} end`;
    const day: PlannedDay = { dayNumber: 1, date: '2026-12-30', title: 'Day 1', description, stops: [] };
    for (const size of [1, 2, 3, 5, 7]) {
      const chunks: string[] = [];
      for await (const chunk of createOfflinePlanner({ db, delayMs: 0, chunkSize: size }).summarize(day, request(), new AbortController().signal))
        chunks.push(chunk);
      expect(chunks.join('')).toBe(description);
      for (const chunk of chunks) expect(chunk).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    }
  });

  it('summarize stops with the abort reason when aborted mid-stream', async () => {
    const [day] = await planDays(request());
    const slow = createOfflinePlanner({ db, delayMs: 5, chunkSize: 10 });
    const controller = new AbortController();
    const reason = new Error('user cancelled');
    const chunks: string[] = [];
    setTimeout(() => controller.abort(reason), 30);
    const run = (async () => {
      for await (const chunk of slow.summarize(day!, request(), controller.signal)) chunks.push(chunk);
    })();
    await expect(run).rejects.toBe(reason);
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.join('').length).toBeLessThan(day!.description.length);
  });

  it('plan stops before the next day once aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled after day 1');
    const days: PlannedDay[] = [];
    const run = (async () => {
      for await (const day of planner.plan(request(), controller.signal)) {
        days.push(day);
        controller.abort(reason);
      }
    })();
    await expect(run).rejects.toBe(reason);
    expect(days.map((d) => d.dayNumber)).toEqual([1]);
  });

  it('plan does nothing when already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('too late'));
    await expect(planDays(request(), planner, controller.signal)).rejects.toThrow('too late');
  });

  it('is named offline', () => {
    expect(planner.name).toBe('offline');
  });
});
