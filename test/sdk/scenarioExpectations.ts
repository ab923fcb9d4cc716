// One set of expectations for every generated client: each program returns what it saw at each
// step (a ScenarioResult, the type the programs share in test/fixtures/sdk/scenarioCommon.ts), and
// the same flow has to produce the same answers whichever SDK drove it. The flow: log in → create
// (two more plans too) → subscribe → start → page through the list → read the days → swap two
// stops → chat history → rename → delete → the deleted plan is a typed 404 TRIP101.
import { jsonAt } from '../../conformance/specModel/index.js';
import { expect } from 'vitest';
import type { ReceivedMessage } from '../../conformance/index.js';
import type { StompRealtime } from './stompRealtime.js';
import type { ScenarioResult } from '../fixtures/sdk/scenarioCommon.js';

type Day = ScenarioResult['dailyPlans']['days'][number];

export interface ScenarioProgram {
  runScenario: (baseUrl: string, realtime: StompRealtime) => Promise<ScenarioResult>;
}

const stopNames = (day: Day | undefined) => day?.scheduledPlaces.map((stop) => stop.place.name) ?? [];

export function expectScenario(result: ScenarioResult, received: ReceivedMessage[]): void {
  const { tripPlanId } = result.ids;
  const [first, second] = result.ids.others;
  expect(result.login).toEqual({ status: 200, expiresIn: 3600 });
  expect(result.create).toEqual({ status: 201, location: `/api/v1/trips/${tripPlanId}` });
  expect(result.start).toEqual({ status: 200, message: expect.any(String) as unknown });
  // Newest first, two per page, followed through nextCursor to the last page.
  expect(result.list.pages).toEqual([[tripPlanId, second], [first]]);

  expect(result.dailyPlans.status).toBe(200);
  expect(result.dailyPlans.days.map((day) => day.date)).toEqual(['2026-12-24', '2026-12-25', '2026-12-26']);
  // What the HTTP client reads back is exactly what the STOMP side streamed.
  const streamed = received.filter((m) => jsonAt(m.body, 'type') === 'DAILY_PLAN_GENERATED').map((m) => jsonAt(m.body, 'dailyPlan'));
  expect(result.dailyPlans.days).toEqual(streamed);

  expect(result.swap.status).toBe(204);
  const [before, ...otherDays] = result.dailyPlans.days;
  const [after, ...otherDaysAfter] = result.swap.daysAfter;
  const [firstStop, secondStop, ...rest] = stopNames(before);
  expect(stopNames(after)).toEqual([secondStop, firstStop, ...rest]);
  expect(otherDaysAfter).toEqual(otherDays);

  // The history keeps each day's summary as the chat channel streamed it in full, newest first.
  const summaries = received.filter(
    (m) => m.destination.startsWith('/user/sub/chat/') && jsonAt(m.body, 'messageStreamType') === 'CHAT' && jsonAt(m.body, 'isComplete') === true,
  );
  expect(summaries).toHaveLength(3);
  expect(result.chat).toEqual({
    status: 200,
    hasNext: false,
    messages: summaries.map((m) => ({ messageType: 'ASSISTANT', content: jsonAt(m.body, 'message') })).reverse(),
  });

  expect(result.rename).toEqual({ status: 204, title: 'Christmas in Busan', generationStatus: 'COMPLETED' });
  expect(result.delete).toEqual({ status: 204 });
  expect(result.getDeleted).toEqual({ status: 404, code: 'TRIP101' });
}
