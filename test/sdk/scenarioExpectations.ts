// One set of expectations for every generated client: each program returns what it saw at each
// step, and the same scenario has to produce the same answers whichever SDK drove it.
import { expect } from 'vitest';
import type { ReceivedMessage } from '../support/stompTestClient.js';
import type { StompRealtime } from './stompRealtime.js';

interface Day {
  dayNumber: number;
  date: string;
  scheduledPlaces: { visitOrder: number; place: { name: string } }[];
}

export interface ScenarioResult {
  ids: { tripPlanId: number; chatRoomId: number };
  login: { status: number };
  create: { status: number; location: string | null };
  list: { status: number; tripPlanIds: number[] };
  start: { status: number; message: string };
  dailyPlans: { status: number; days: Day[] };
  swap: { status: number; daysAfter: Day[] };
  delete: { status: number };
  getDeleted: { status: number; code: string | undefined };
}

export interface ScenarioProgram {
  runScenario(baseUrl: string, realtime: StompRealtime): Promise<ScenarioResult>;
}

const stopNames = (day: Day | undefined) => day?.scheduledPlaces.map((stop) => stop.place.name) ?? [];

export function expectScenario(result: ScenarioResult, received: ReceivedMessage[]): void {
  const { tripPlanId } = result.ids;
  expect(result.login.status).toBe(200);
  expect(result.create).toEqual({ status: 201, location: `/api/v1/trips/${tripPlanId}` });
  expect(result.list).toEqual({ status: 200, tripPlanIds: [tripPlanId] });
  expect(result.start).toEqual({ status: 200, message: expect.any(String) });

  expect(result.dailyPlans.status).toBe(200);
  expect(result.dailyPlans.days.map((day) => day.date)).toEqual(['2026-12-24', '2026-12-25', '2026-12-26']);
  // What the HTTP client reads back is exactly what the STOMP side streamed.
  const streamed = received.filter((m) => m.body.type === 'DAILY_PLAN_GENERATED').map((m) => m.body.dailyPlan);
  expect(result.dailyPlans.days).toEqual(streamed);

  expect(result.swap.status).toBe(204);
  const [before, ...otherDays] = result.dailyPlans.days;
  const [after, ...otherDaysAfter] = result.swap.daysAfter;
  const [first, second, ...rest] = stopNames(before);
  expect(stopNames(after)).toEqual([second, first, ...rest]);
  expect(otherDaysAfter).toEqual(otherDays);

  expect(result.delete).toEqual({ status: 204 });
  expect(result.getDeleted).toEqual({ status: 404, code: 'TRIP101' });
}
