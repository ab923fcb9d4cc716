// Subscribing, and subscribing again after every reconnect: a subscription that has seen a message
// resumes after it (`x-since`, its own position, or else its log's in its scope), so nothing is
// missed and nothing repeated while it was away; one that has seen nothing of its log asks for the
// current epoch (`x-replay: all`), unless a run is about to begin that has not shown itself yet:
// then the current epoch may be the previous run's, and a plain SUBSCRIBE waits for the run's first
// message, which must be at the first offset (else the loss is told).
import { delivery, type ChannelParameters } from '../generated/realtime/asyncapi.js';
import { destinationOf, logOf, positionText, type ReceivableChannel } from './channels.js';
import { dropSubscription, type ConnectionState, type Subscription } from './connectionState.js';
import { closeErrorFrameIncident, onMessage, onReceipt, type Asked } from './frames.js';
import { deferred } from './inbox.js';
import { lastPosition } from './logFollow.js';
import type { RealtimeSubscription, SubscribeOptions, SubscriptionHandler } from './realtimeTypes.js';
import { followOf, newScope } from './scopes.js';

export function addSubscription<C extends ReceivableChannel>(
  state: ConnectionState,
  channel: C,
  parameters: ChannelParameters<C>,
  handler: SubscriptionHandler<C>,
  options: SubscribeOptions,
): Subscription {
  const id = `sub-${++state.counter}`;
  const key = options.scope ?? `\n${id}`;
  let scope = state.scopes.get(key);
  if (!scope) state.scopes.set(key, (scope = newScope(key)));
  const subscription: Subscription = {
    id,
    channel,
    log: logOf(channel),
    parameters,
    destination: destinationOf(channel, parameters),
    handler: handler as SubscriptionHandler<ReceivableChannel>,
    options: { ...options, refetch: options.refetch ?? state.options.refetch ?? false },
    scope,
    retired: new Set(),
    live: deferred<void>(),
    subscribedOnce: false,
    receiptId: null,
    settled: false,
    position: null,
    active: true,
  };
  state.subscriptions.add(subscription);
  scope.members.add(subscription);
  return subscription;
}

/** What the SUBSCRIBE of `subscription` asks for on this connection. */
function askFor(subscription: Subscription): Asked {
  const { all, since } = delivery.replay;
  const replayAll: Asked = { resume: subscription.subscribedOnce, headers: { [all.header]: all.value } };
  if (!subscription.subscribedOnce && !subscription.position) return subscription.options.replay === 'all' ? replayAll : { resume: false, headers: {} };
  const follow = followOf(subscription.scope, subscription.log);
  const from = subscription.position ?? lastPosition(follow);
  if (from) return { resume: true, headers: { [since.header]: positionText(from) } };
  if (!follow.expectsRun) return replayAll;
  // A run is about to begin and nothing of it came on this log. Once another log of the scope saw it
  // begin, this log's current epoch is the run's (a run renews every log, the plan's first) and its
  // history can be asked for; before that, it could still be the previous run's.
  const begunElsewhere = [...subscription.scope.logs.values()].some((log) => log !== follow && !log.expectsRun);
  return begunElsewhere ? replayAll : { resume: true, headers: {} };
}

/** Sends the SUBSCRIBE of `subscription` on the current connection (a no-op while there is none). */
export function sendSubscribe(state: ConnectionState, subscription: Subscription): void {
  const { link } = state;
  if (!link.connected || !subscription.active) return;
  const asked = askFor(subscription);
  const receipt = `${subscription.id}-${++state.counter}`;
  const connectionId = link.connectionId;
  subscription.receiptId = receipt;
  subscription.settled = false;
  link.watchReceipt(receipt, (frame) => onReceipt(state, subscription, frame, asked, connectionId));
  link.subscribe(subscription.destination, { id: subscription.id, receipt, ...asked.headers }, (message) =>
    onMessage(state, subscription, message, connectionId),
  );
}

/** Subscribes every subscription again on a new connection, each from where it was. */
export function resubscribeAll(state: ConnectionState): void {
  state.toldOnConnection.clear();
  for (const subscription of [...state.subscriptions]) sendSubscribe(state, subscription);
  closeErrorFrameIncident(state);
}

/** UNSUBSCRIBE, waiting for its RECEIPT while the connection lasts (a closed connection ends its subscriptions too). */
function unsubscribe(state: ConnectionState, subscription: Subscription): Promise<void> {
  if (!subscription.active) return Promise.resolve();
  dropSubscription(state, subscription);
  subscription.live.reject(new Error('unsubscribed'));
  const { link } = state;
  if (!link.connected) return Promise.resolve();
  const receipt = `${subscription.id}-${++state.counter}`;
  const done = new Promise<void>((resolve) => state.pendingReceipts.set(receipt, { receipt: resolve, failed: () => resolve() }));
  link.watchReceipt(receipt, () => state.pendingReceipts.get(receipt)?.receipt());
  link.unsubscribe(subscription.id, { receipt });
  return done.finally(() => state.pendingReceipts.delete(receipt));
}

export function handleOf<C extends ReceivableChannel>(state: ConnectionState, subscription: Subscription): RealtimeSubscription<C> {
  return {
    channel: subscription.channel as C,
    parameters: subscription.parameters as ChannelParameters<C>,
    destination: subscription.destination,
    position: () => subscription.position,
    unsubscribe: () => unsubscribe(state, subscription),
  };
}
