// One benchmark user going through the documented flow: dev-login, create a plan, STOMP CONNECT,
// subscribe to its three channels with receipts; later start, then receive until chat COMPLETED.
// Records what arrived (for the sequence check) and when it started and completed.
import type { ChannelPayloads } from '../../generated/asyncapi.js';
import { connectStomp, type StompConnection } from '../../tools/client/stompConnection.js';
import type { TripApi, TripPlanCreateRequest } from '../../tools/client/tripApi.js';
import type { ReceivedMessage } from './generationSequence.js';
import { newOffsetSequence, recordOffset, type OffsetSequence } from './offsetOrder.js';

export interface SimulatedUser {
  readonly email: string;
  readonly trip: TripPlanCreateRequest;
  token?: string;
  tripPlanId?: number;
  chatRoomId?: number;
  connection?: StompConnection;
  /** schedule and chat messages in arrival order (one WebSocket, so one order) */
  readonly received: ReceivedMessage[];
  readonly errors: ChannelPayloads['errors'][];
  /** every MESSAGE frame, errors channel included */
  frames: number;
  /** x-offset order of the plan's sequence (schedule + errors) and of the chat room's */
  readonly planOffsets: OffsetSequence;
  readonly chatOffsets: OffsetSequence;
  /** per chat MESSAGE: wall-clock arrival minus the payload's timestamp, set by the server as it
   * published (ms; server and clients share this machine's clock) */
  readonly deliveriesMs: number[];
  /** performance.now() when its start POST was issued, and when its COMPLETED arrived */
  startedAt?: number;
  completedAt?: number;
  /** why it dropped out of the flow (setup or start failed) */
  failure?: string;
}

export function newUser(email: string, trip: TripPlanCreateRequest): SimulatedUser {
  return { email, trip, received: [], errors: [], frames: 0, planOffsets: newOffsetSequence(), chatOffsets: newOffsetSequence(), deliveriesMs: [] };
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function signUpAndPlan(api: TripApi, user: SimulatedUser): Promise<void> {
  try {
    user.token = await api.devLogin(user.email);
    const ids = await api.createTrip(user.token, user.trip);
    user.tripPlanId = ids.tripPlanId;
    user.chatRoomId = ids.chatRoomId;
  } catch (error) {
    user.failure = `http setup: ${reason(error)}`;
  }
}

/** `onFinished` fires once: at COMPLETED, or at an errors-channel message (nothing follows AI002). */
export async function connectAndSubscribe(url: string, user: SimulatedUser, onFinished: () => void): Promise<void> {
  if (user.failure || !user.token || !user.tripPlanId || !user.chatRoomId) return;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    onFinished();
  };
  try {
    // Heart-beats off: the runs last seconds, and a client process busy with 1000 sockets must not
    // be mistaken for a dead peer.
    const connection = await connectStomp(url, user.token, { heartbeatMs: 0 });
    user.connection = connection;
    const arrived = (sequence: OffsetSequence, headers: Readonly<Record<string, string>>) => {
      user.frames++;
      recordOffset(sequence, headers);
    };
    await connection.subscribe('scheduleUpdates', { tripPlanId: user.tripPlanId }, (payload, headers) => {
      arrived(user.planOffsets, headers);
      user.received.push({ channel: 'scheduleUpdates', payload });
    });
    await connection.subscribe('chatStream', { chatRoomId: user.chatRoomId }, (payload, headers) => {
      arrived(user.chatOffsets, headers);
      user.deliveriesMs.push(Date.now() - Date.parse(payload.timestamp));
      user.received.push({ channel: 'chatStream', payload });
      if (payload.messageStreamType === 'COMPLETED') {
        user.completedAt = performance.now();
        finish();
      }
    });
    await connection.subscribe('errors', { chatRoomId: user.chatRoomId }, (payload, headers) => {
      arrived(user.planOffsets, headers);
      user.errors.push(payload);
      finish();
    });
  } catch (error) {
    user.failure = `stomp setup: ${reason(error)}`;
  }
}

export async function startGeneration(api: TripApi, user: SimulatedUser): Promise<void> {
  if (user.failure || !user.token || !user.tripPlanId) return;
  user.startedAt = performance.now();
  try {
    await api.startGeneration(user.token, user.tripPlanId);
  } catch (error) {
    user.failure = `start: ${reason(error)}`;
  }
}
