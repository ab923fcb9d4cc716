// The last message of a generation that did not complete: the chat's CANCELLED, or AI002 on the
// errors channel (asyncapi.yaml: nothing follows either).
import { channelAddress } from '../../generated/asyncapi.js';
import type { PlanAddress, Publishers } from '../realtime/publishers.js';

export type GenerationAddress = PlanAddress;

export const STOPPED_MESSAGE = 'The service stopped while generating this itinerary; start the generation again.';
export const LEASE_EXPIRED_MESSAGE = 'The service instance generating this itinerary stopped answering; start the generation again.';
const CANCELLED_MESSAGE = 'The itinerary generation was cancelled.';

export function announceCancelled(publishers: Publishers, clock: () => number, { memberId, chatRoomId }: GenerationAddress): void {
  publishers.chat(memberId, chatRoomId, {
    message: CANCELLED_MESSAGE,
    isComplete: true,
    timestamp: new Date(clock()).toISOString(),
    messageStreamType: 'CANCELLED',
  });
}

export function announceFailure(publishers: Publishers, clock: () => number, plan: GenerationAddress, message: string): void {
  const { chatRoomId } = plan;
  publishers.error(plan, {
    timestamp: new Date(clock()).toISOString(),
    code: 'AI002',
    message,
    path: channelAddress('errors', { chatRoomId }),
    errors: null,
  });
}
