// The last message of a generation that did not complete: the chat's CANCELLED, or AI002 on the
// errors channel (asyncapi.yaml: nothing follows either). Each goes out as a message of the run it
// ends (its RunToken), so it closes that run's logs: nothing of that run is taken after it.
import { channelAddress } from '../../generated/asyncapi.js';
import type { RunPublishers } from '../delivery/publishers.js';

export const STOPPED_MESSAGE = 'The service stopped while generating this itinerary; start the generation again.';
export const LEASE_EXPIRED_MESSAGE = 'The service instance generating this itinerary stopped answering; start the generation again.';
const CANCELLED_MESSAGE = 'The itinerary generation was cancelled.';

export function announceCancelled(run: RunPublishers, clock: () => number): void {
  run.chat({ message: CANCELLED_MESSAGE, isComplete: true, timestamp: new Date(clock()).toISOString(), messageStreamType: 'CANCELLED' });
}

export function announceFailure(run: RunPublishers, clock: () => number, chatRoomId: number, message: string): void {
  run.error({ timestamp: new Date(clock()).toISOString(), code: 'AI002', message, path: channelAddress('errors', { chatRoomId }), errors: null });
}
