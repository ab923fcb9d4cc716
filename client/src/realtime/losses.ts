// Telling a loss (asyncapi.yaml, "Late subscribers and reconnects"): every subscription of the
// scope on the log that lost messages gets a ContinuityLostEvent in its handler, and the
// connection's listeners get one; with refetch, the log's rebuildWith operations (read from
// x-delivery, never named here) are called first and their answers ride on the event.
import { delivery } from '../generated/realtime/asyncapi.js';
import type { LogName } from './channels.js';
import type { ConnectionState, Subscription } from './connectionState.js';
import type { ContinuityReason } from './logFollow.js';
import type { ContinuityLostEvent, OperationParameters, RealtimeOptions, RefetchResult } from './realtimeTypes.js';
import { parametersOf } from './scopes.js';

/** Reads the state of `log` again: each of its rebuildWith operations, with what it answered or why it did not. */
export function refetchLog(log: LogName, parameters: OperationParameters, options: Pick<RealtimeOptions, 'callOperation'>): Promise<RefetchResult[]> {
  return Promise.all(
    delivery.logs[log].rebuildWith.map(async (operationId): Promise<RefetchResult> => {
      try {
        return { operationId, ok: true, value: await options.callOperation(operationId, parameters) };
      } catch (error) {
        return { operationId, ok: false, error };
      }
    }),
  );
}

/** Calls a handler, reporting what it throws instead of letting it stop the others. */
export function safely<T>(state: ConnectionState, subscription: Subscription | null, call: ((event: T) => void) | undefined, event: T): void {
  try {
    call?.(event);
  } catch (error) {
    state.events.emit('handlerError', { error, channel: subscription?.channel ?? null });
  }
}

/** `subscription` saw that messages of its log may be missing; tells it once per loss. */
export function tellLoss(state: ConnectionState, subscription: Subscription, reason: ContinuityReason): void {
  const { scope, log } = subscription;
  // The RECEIPTs of every channel of a log may each say the same loss.
  if (reason === 'notRecovered' || reason === 'errorFrame') {
    const key = `${scope.key}\n${log}`;
    if (state.toldOnConnection.has(key)) return;
    state.toldOnConnection.add(key);
  }
  if (state.errorFrame === 'pending') state.errorFrame = 'told';
  const loss = ++state.losses;
  const told = [...state.subscriptions].filter((s) => s.scope === scope && s.log === log).map((s) => ({ s, position: s.position }));
  const parameters = parametersOf(scope);
  const detectedAt = subscription.position;
  state.inbox.push(async () => {
    const refetched = subscription.options.refetch ? await refetchLog(log, parameters, state.options) : undefined;
    // A subscription's channel and parameters belong together; the union type cannot say so.
    const eventOf = (s: Subscription, position: typeof detectedAt) =>
      ({
        channel: s.channel,
        parameters: s.parameters,
        log,
        reason,
        rebuildWith: delivery.logs[log].rebuildWith,
        loss,
        position,
        ...(refetched ? { refetched } : {}),
      }) as unknown as ContinuityLostEvent;
    for (const { s, position } of told) if (s.active) safely(state, s, s.handler.onContinuityLost?.bind(s.handler), eventOf(s, position));
    state.events.emit('continuityLost', eventOf(subscription, detectedAt));
  });
}
