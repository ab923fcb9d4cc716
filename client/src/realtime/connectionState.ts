// The state one RealtimeConnection keeps: its subscriptions and their scopes, the receipts its
// callers wait for, and what it already told on the current connection. Functions over it live here
// (giving a subscription up), in subscriptions.ts (subscribing and resuming), frames.ts (what
// arrives) and losses.ts (telling).
import type { Emitter } from './events.js';
import type { Deferred, Inbox } from './inbox.js';
import type { Scope, ScopeMember } from './scopes.js';
import type { StompLink } from './stompLink.js';
import type { RealtimeEvents, RealtimeOptions, SubscribeOptions, SubscriptionHandler } from './realtimeTypes.js';
import type { ReceivableChannel } from './channels.js';

export interface Subscription extends ScopeMember {
  /** the SUBSCRIBE `id`, the same on every connection */
  readonly id: string;
  readonly destination: string;
  readonly handler: SubscriptionHandler<ReceivableChannel>;
  readonly options: SubscribeOptions & { refetch: boolean };
  readonly scope: Scope;
  /** the epochs of its messages before the current one: a message of one of them came already or is stale */
  readonly retired: Set<string>;
  /** resolved at its first RECEIPT */
  readonly live: Deferred<void>;
  /** it has had a RECEIPT on some connection: a SUBSCRIBE now resumes it */
  subscribedOnce: boolean;
  /** the `receipt` of its SUBSCRIBE on the current connection, until the RECEIPT came */
  receiptId: string | null;
  active: boolean;
}

/** A SEND or UNSUBSCRIBE waiting for its RECEIPT. */
export interface PendingReceipt {
  receipt(): void;
  /** an ERROR frame named it, or the connection ended before its RECEIPT */
  failed(code: string, message: string): void;
}

export interface ConnectionState {
  readonly options: RealtimeOptions;
  readonly events: Emitter<RealtimeEvents>;
  readonly inbox: Inbox;
  link: StompLink;
  readonly subscriptions: Set<Subscription>;
  readonly scopes: Map<string, Scope>;
  readonly pendingReceipts: Map<string, PendingReceipt>;
  /** for subscription ids and receipts */
  counter: number;
  /** losses told so far (ContinuityLostEvent.loss) */
  losses: number;
  /** the scope and log of every loss a RECEIPT told on the current connection: one loss, one event */
  toldOnConnection: Set<string>;
  /** why the connection is over (closed, or it gave up): nothing new may wait on it */
  ended: Error | null;
  /** an ERROR with continuity.errorCode ended the last connection: the RECEIPTs of the next one say which logs lost messages */
  errorFrame: 'none' | 'pending' | 'told';
}

/** Gives the subscription up: nothing more reaches its handler, and its scope forgets it. */
export function dropSubscription(state: ConnectionState, subscription: Subscription): void {
  subscription.active = false;
  state.subscriptions.delete(subscription);
  subscription.scope.members.delete(subscription);
  if (subscription.scope.members.size === 0) state.scopes.delete(subscription.scope.key);
}
