// connectRealtime(): one STOMP connection that keeps itself going. Its subscriptions outlive the
// socket under them: after any reconnect (to the same URL or, when options.url is a function,
// another instance) each subscribes again from where it was, each message reaches its handler once,
// and what may have been lost is told (ContinuityLostEvent) rather than silently skipped.
import type { ChannelParameters, ChannelPayloads } from '../generated/realtime/asyncapi.js';
import { destinationOf, type ReceivableChannel, type SendableChannel } from './channels.js';
import type { ConnectionState } from './connectionState.js';
import { createEmitter } from './events.js';
import { onDisconnected, onErrorFrame } from './frames.js';
import { createInbox } from './inbox.js';
import {
  RealtimeError,
  type RealtimeConnection,
  type RealtimeEvents,
  type RealtimeOptions,
  type SubscribeOptions,
  type SubscriptionHandler,
} from './realtimeTypes.js';
import { expectRun } from './scopes.js';
import { openStompLink, type StompLink } from './stompLink.js';
import { addSubscription, handleOf, resubscribeAll, sendSubscribe } from './subscriptions.js';

/** Everything still waiting is told that the connection is gone. */
function endAll(state: ConnectionState, error: Error): void {
  state.ended ??= error;
  for (const subscription of state.subscriptions) {
    subscription.active = false;
    subscription.live.reject(error);
  }
  state.subscriptions.clear();
  state.scopes.clear();
  for (const pending of [...state.pendingReceipts.values()]) pending.failed(error instanceof RealtimeError ? error.code : 'closed', error.message);
}

async function send<C extends SendableChannel>(
  state: ConnectionState,
  channel: C,
  parameters: ChannelParameters<C>,
  payload: ChannelPayloads[C],
): Promise<void> {
  await state.link.whenConnected();
  const receipt = `send-${++state.counter}`;
  const done = new Promise<void>((resolve, reject) =>
    state.pendingReceipts.set(receipt, { receipt: resolve, failed: (code, message) => reject(new RealtimeError(code, message)) }),
  );
  state.link.watchReceipt(receipt, () => state.pendingReceipts.get(receipt)?.receipt());
  try {
    state.link.publish(destinationOf(channel, parameters), JSON.stringify(payload), { receipt, 'content-type': 'application/json' });
    await done;
  } finally {
    state.pendingReceipts.delete(receipt);
  }
}

async function subscribe<C extends ReceivableChannel>(
  state: ConnectionState,
  channel: C,
  parameters: ChannelParameters<C>,
  handler: SubscriptionHandler<C>,
  options: SubscribeOptions,
) {
  if (state.ended) throw state.ended;
  const subscription = addSubscription(state, channel, parameters, handler, options);
  sendSubscribe(state, subscription);
  await subscription.live.promise;
  return handleOf<C>(state, subscription);
}

export async function connectRealtime(options: RealtimeOptions): Promise<RealtimeConnection> {
  const events = createEmitter<RealtimeEvents>(() => undefined);
  const reportError = (error: unknown) => events.emit('handlerError', { error, channel: null });
  const state: ConnectionState = {
    options,
    events,
    inbox: createInbox(reportError),
    // Set below, before the link's first hook can run (its first attempt awaits the token).
    link: null as unknown as StompLink,
    subscriptions: new Set(),
    scopes: new Map(),
    pendingReceipts: new Map(),
    counter: 0,
    losses: 0,
    toldOnConnection: new Set(),
    ended: null,
    errorFrame: 'none',
  };
  const { link, opened } = openStompLink(options, {
    connected(connectionId, url) {
      resubscribeAll(state);
      events.emit('connected', { url, reconnected: connectionId > 1 });
    },
    error: (frame) => onErrorFrame(state, frame),
    disconnected(errorCode, willReconnect) {
      onDisconnected(state, errorCode);
      events.emit('disconnected', { errorCode, willReconnect });
    },
    failed(error) {
      endAll(state, error);
      events.emit('failed', { error });
    },
  });
  state.link = link;
  await opened;
  return {
    subscribe: (channel, parameters, handler, subscribeOptions = {}) => subscribe(state, channel, parameters, handler, subscribeOptions),
    send: (channel, parameters, payload) => send(state, channel, parameters, payload),
    expectRun(scope) {
      const found = state.scopes.get(scope);
      if (found) expectRun(found);
    },
    on: (event, listener) => events.on(event, listener),
    get connected() {
      return link.connected;
    },
    async close() {
      endAll(state, new RealtimeError('closed', 'The connection was closed.'));
      await link.close();
    },
  };
}
