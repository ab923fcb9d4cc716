// What arrives on the connection, judged the moment it arrives (so the judgement follows the order
// of the socket) and acted on through the inbox (so handlers see that same order): MESSAGE frames,
// each given once to its handler (a position it already had is dropped), RECEIPTs of SUBSCRIBEs
// (live; `x-recovered: false` is a loss), ERROR frames (what they refuse), and the connection's end.
import type { IFrame, IMessage } from '@stomp/stompjs';
import { delivery, runEndOf, type ChannelPayloads } from '../generated/realtime/asyncapi.js';
import { positionOf, type Position, type ReceivableChannel } from './channels.js';
import { dropSubscription, type ConnectionState, type Subscription } from './connectionState.js';
import { followMessage, gapOf, rebase } from './logFollow.js';
import { safely, tellLoss } from './losses.js';
import { RealtimeError } from './realtimeTypes.js';
import { endRun, followOf, viewOf } from './scopes.js';
import type { ErrorFrame } from './stompLink.js';

/** What a SUBSCRIBE asked for: its replay headers, and whether it resumes a subscription that was live before. */
export interface Asked {
  resume: boolean;
  headers: Record<string, string>;
}

const isCurrent = (state: ConnectionState, subscription: Subscription, connectionId: number): boolean =>
  subscription.active && state.link.connectionId === connectionId && state.link.connected;

/** Already given to the handler: the same epoch at or before its position, or an epoch it left. */
function alreadyHad(subscription: Subscription, position: Position): boolean {
  const had = subscription.position;
  return (had !== null && had.epoch === position.epoch && position.offset <= had.offset) || subscription.retired.has(position.epoch);
}

function parsed(body: string): { payload: ChannelPayloads[ReceivableChannel] } | null {
  try {
    return { payload: JSON.parse(body) as ChannelPayloads[ReceivableChannel] };
  } catch {
    return null;
  }
}

export function onMessage(state: ConnectionState, subscription: Subscription, message: IMessage, connectionId: number): void {
  if (!isCurrent(state, subscription, connectionId)) return;
  const body = parsed(message.body);
  if (!body) {
    state.events.emit('handlerError', { error: new Error(`A MESSAGE on ${subscription.destination} is not JSON.`), channel: subscription.channel });
    return;
  }
  const position = positionOf(message.headers);
  if (position) {
    if (alreadyHad(subscription, position)) return;
    const reason = followMessage(followOf(subscription.scope, subscription.log), position, viewOf(subscription.scope, subscription.log));
    if (reason) tellLoss(state, subscription, reason);
    if (subscription.position && subscription.position.epoch !== position.epoch) subscription.retired.add(subscription.position.epoch);
    subscription.position = position;
  }
  if (runEndOf(subscription.channel, body.payload as never) !== null) endRun(subscription.scope);
  state.inbox.push(() => {
    if (subscription.active) safely(state, subscription, (p: typeof body.payload) => subscription.handler.onMessage(p, position), body.payload);
  });
}

export function onReceipt(state: ConnectionState, subscription: Subscription, frame: IFrame, asked: Asked, connectionId: number): void {
  if (!isCurrent(state, subscription, connectionId) || subscription.receiptId !== frame.headers['receipt-id']) return;
  subscription.receiptId = null;
  subscription.settled = true;
  subscription.subscribedOnce = true;
  const follow = followOf(subscription.scope, subscription.log);
  if (frame.headers[delivery.replay.recoveredHeader] === 'false') {
    tellLoss(state, subscription, state.errorFrame === 'none' ? 'notRecovered' : 'errorFrame');
    follow.told = true;
  } else {
    // A subscription that joins goes on from where its log is; one that resumes fills what its log missed.
    if (!asked.resume) rebase(follow, 0);
    const view = viewOf(subscription.scope, subscription.log);
    const gap = view.settled && view.complete ? gapOf(follow) : null;
    if (gap) tellLoss(state, subscription, gap);
  }
  closeErrorFrameIncident(state);
  state.inbox.push(() => subscription.live.resolve());
}

/**
 * After an ERROR with continuity.errorCode the RECEIPTs of the next connection say which logs lost
 * messages; if none said so, the client cannot tell which did, and tells every log it follows.
 */
export function closeErrorFrameIncident(state: ConnectionState): void {
  if (state.errorFrame === 'none' || [...state.subscriptions].some((s) => !s.settled)) return;
  if (state.errorFrame === 'pending') {
    const firstOfEachLog = new Map<string, Subscription>();
    for (const s of state.subscriptions) if (!firstOfEachLog.has(`${s.scope.key}\n${s.log}`)) firstOfEachLog.set(`${s.scope.key}\n${s.log}`, s);
    for (const s of firstOfEachLog.values()) {
      tellLoss(state, s, 'errorFrame');
      followOf(s.scope, s.log).told = true;
    }
  }
  state.errorFrame = 'none';
}

export function onDisconnected(state: ConnectionState, errorCode: string | null): void {
  for (const subscription of state.subscriptions) {
    subscription.settled = false;
    subscription.receiptId = null;
  }
  for (const pending of [...state.pendingReceipts.values()])
    pending.failed(errorCode ?? 'closed', 'The connection ended before the RECEIPT came; the frame may or may not have taken effect.');
}

export function onErrorFrame(state: ConnectionState, frame: ErrorFrame): void {
  const code = frame.code ?? 'unknown';
  if (code === delivery.continuity.errorCode) state.errorFrame = 'pending';
  if (frame.receiptId === null) return;
  state.pendingReceipts.get(frame.receiptId)?.failed(code, frame.message);
  const refused = [...state.subscriptions].find((s) => s.receiptId === frame.receiptId);
  if (!refused) return;
  // The server refused the SUBSCRIBE itself (not ours, a limit): asking again would be refused again.
  dropSubscription(state, refused);
  refused.live.reject(new RealtimeError(code, frame.message));
  state.events.emit('subscriptionRefused', { channel: refused.channel, parameters: refused.parameters, errorCode: code });
}
