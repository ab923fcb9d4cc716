// What the concurrent day-edit tests share: a plan with one long day of catalogue places, the saved
// day read back, the edits a round's announcements name, and the check that those edits, applied
// one after another in some order, lead from the day before the round to the day saved after it
// (no acknowledged edit lost, none applied to a day it did not see).
import { jsonAt, jsonText } from '../../conformance/specModel/index.js';
import type { components } from '../../generated/openapi.js';
import type { DatabasePort } from '../../src/db/databasePort.js';
import { placesOfRegion } from '../../src/catalogue/placeRepository.js';
import { insertDay } from '../../src/trips/dailyPlanRepository.js';
import { bodyOf } from './responseBody.js';
import type { ReceivedMessage } from './stompTestClient.js';
import { busanTrip, type TestApp } from './testApp.js';

export type SavedDay = components['schemas']['DailyPlanResponse'];
export type Plan = { tripPlanId: number; chatRoomId: number };

/** A Busan plan of the member (PENDING, so edits are allowed) whose day 1 has `stops` stops of distinct catalogue sights. */
export async function planWithLongDay(app: TestApp, token: string, stops: number): Promise<Plan> {
  const plan = bodyOf(await app.request('POST', '/api/v1/trips', { token, body: { ...busanTrip, duration: 1 } }), 'createTripPlanSession', 201).data;
  const db: DatabasePort = app.app.services.db;
  const sights = (await placesOfRegion(db, 'busan')).filter((p) => p.kind === 'SIGHT').slice(0, stops);
  if (sights.length < stops) throw new Error(`the Busan catalogue has only ${sights.length} sights`);
  await insertDay(
    db,
    plan.tripPlanId,
    {
      dayNumber: 1,
      date: busanTrip.startDate,
      title: 'Day 1',
      description: '### Day 1\nA long test day.',
      stops: sights.map((place, i) => ({
        category: (['MORNING', 'AFTERNOON', 'EVENING'] as const)[Math.min(2, Math.floor((i * 3) / stops))]!,
        travelTime: i === 0 ? null : 10,
        travelDistance: i === 0 ? null : 1000,
        placeId: place.id,
      })),
    },
    'PUBLIC_TRANSIT',
  );
  return plan;
}

export async function savedDay(app: TestApp, token: string, tripPlanId: number): Promise<SavedDay> {
  const days = bodyOf(await app.request('GET', `/api/v1/trips/daily-plans/${tripPlanId}`, { token }), 'listDailyPlans', 200).data;
  return days[0]!;
}

/** The place ids of a day, by visit order. */
export const placesOf = (day: SavedDay): number[] => day.scheduledPlaces.map((s) => s.place.id);

/** Visit orders 1..n, and no place twice. */
export function isWellFormed(day: SavedDay): boolean {
  const orders = day.scheduledPlaces.map((s) => s.visitOrder);
  return orders.every((order, i) => order === i + 1) && new Set(placesOf(day)).size === orders.length;
}

export function swapped(places: readonly number[], a: number, b: number): number[] {
  const next = [...places];
  [next[a - 1], next[b - 1]] = [next[b - 1]!, next[a - 1]!];
  return next;
}

export type Edit = { kind: 'swap'; a: number; b: number } | { kind: 'remove'; at: number } | { kind: 'replace'; at: number };

/** An edit as its announcement names it (dayEdits.ts, editSummary). */
export function editNamedBy(summary: string): Edit {
  let match = /^Swapped stop (\d+) \(.*\) and stop (\d+) \(.*\) on day \d+\.$/.exec(summary);
  if (match) return { kind: 'swap', a: Number(match[1]), b: Number(match[2]) };
  match = /^Removed stop (\d+) \(.*\) from day \d+\.$/.exec(summary);
  if (match) return { kind: 'remove', at: Number(match[1]) };
  match = /^Replaced stop (\d+) \(.*\) on day \d+ with /.exec(summary);
  if (match) return { kind: 'replace', at: Number(match[1]) };
  throw new Error(`not an edit's summary: ${summary}`);
}

/** A schedule UPDATED among `messages`: the edit it names and the day as that edit saved it. */
export interface AnnouncedEdit {
  edit: Edit;
  after: number[];
}

export function announcedEdits(messages: readonly ReceivedMessage[]): AnnouncedEdit[] {
  return messages
    .filter((m) => m.destination.includes('/schedule/') && jsonAt(m.body, 'type') === 'UPDATED')
    .map((m) => ({
      edit: editNamedBy(jsonText(jsonAt(m.body, 'message'))),
      after: (jsonAt(m.body, 'dailyPlan') as unknown as SavedDay).scheduledPlaces.map((s) => s.place.id),
    }));
}

function sameList(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Whether `after` is `before` with `edit` applied (a replacement is any place the day did not hold). */
function follows(edit: Edit, before: readonly number[], after: readonly number[]): boolean {
  switch (edit.kind) {
    case 'swap':
      return edit.a <= before.length && edit.b <= before.length && sameList(after, swapped(before, edit.a, edit.b));
    case 'remove':
      return edit.at <= before.length && sameList(after, [...before.slice(0, edit.at - 1), ...before.slice(edit.at)]);
    case 'replace':
      return (
        edit.at <= before.length &&
        after.length === before.length &&
        after.every((place, i) => (i === edit.at - 1 ? !before.includes(place) : place === before[i]))
      );
  }
}

/**
 * The day after every announced edit, each applied to the day the one before it saved, in an order
 * that fits; null when no order does (an edit was applied to a day that was not the latest, or its
 * result was overwritten).
 */
export function chainOf(start: readonly number[], edits: readonly AnnouncedEdit[]): number[] | null {
  if (edits.length === 0) return [...start];
  for (const [i, { edit, after }] of edits.entries()) {
    if (!follows(edit, start, after)) continue;
    const rest = chainOf(after, [...edits.slice(0, i), ...edits.slice(i + 1)]);
    if (rest) return rest;
  }
  return null;
}

/** Resolves once `condition` holds; rejects after `timeoutMs` with `what`. */
export async function until(condition: () => boolean, what: () => string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
