// What the STOMP operators share: which frame is what (a MESSAGE on a channel, a day of a
// generation, part of a replayed history), and mutations made of one rewrite of one kind of frame.
import type { Mutation, Outgoing, StompLink } from '../mutation.js';
import { headerOf, jsonBodyOf, type StompFrame } from '../stompFrames.js';

export type Channel = 'schedule' | 'chat' | 'errors';

/** Whether the frame is a MESSAGE on the channel (any channel when none is named). */
export const isMessage = (frame: StompFrame, channel?: Channel): boolean =>
  frame.command === 'MESSAGE' && (channel === undefined || (headerOf(frame, 'destination') ?? '').startsWith(`/user/sub/${channel}/`));

/** The day number of a DAILY_PLAN_GENERATED message, else undefined. */
export function generatedDayOf(frame: StompFrame): number | undefined {
  if (!isMessage(frame, 'schedule')) return undefined;
  const body = jsonBodyOf(frame) as { type?: unknown; dailyPlan?: { dayNumber?: unknown } } | undefined;
  return body?.type === 'DAILY_PLAN_GENERATED' && typeof body.dailyPlan?.dayNumber === 'number' ? body.dailyPlan.dayNumber : undefined;
}

/** Whether the MESSAGE is history a replaying SUBSCRIBE asked for (it comes before that SUBSCRIBE's RECEIPT). */
export function isHistory(frame: StompFrame, link: StompLink): boolean {
  const subscription = link.subscriptions.get(headerOf(frame, 'subscription') ?? '');
  return isMessage(frame) && subscription !== undefined && subscription.asked !== 'live' && !subscription.receipted;
}

/** A mutation of the frames the server sends: `rewrite` returns what goes instead (undefined leaves one alone). */
export const rewriteToClient =
  (rewrite: (frame: StompFrame, link: StompLink) => Outgoing[] | undefined): (() => Mutation) =>
  () => ({ toClient: rewrite });

/** A mutation of the frames the client sends. */
export const rewriteToServer =
  (rewrite: (frame: StompFrame, link: StompLink) => Outgoing[] | undefined): (() => Mutation) =>
  () => ({ toServer: rewrite });
