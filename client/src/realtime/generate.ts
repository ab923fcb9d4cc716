// generate(): one generation in the order asyncapi.yaml's "Call order for a generation" asks for,
// so a caller cannot get it wrong: subscribe to the plan's schedule, chat and errors channels, wait
// for their RECEIPTs, only then start the run, and follow it to its end. The outcome is read from
// the message that ends the run (x-delivery's endsRun, through runEndOf), not from message names.
import { runEndOf, type ChannelPayloads, type RunOutcome } from '../generated/realtime/asyncapi.js';
import type { Position, ReceivableChannel } from './channels.js';
import { deferred } from './inbox.js';
import type { ContinuityLostEvent, RealtimeConnection, RealtimeSubscription, SubscriptionHandler } from './realtimeTypes.js';

export type GenerationOutcome = RunOutcome;

export interface GenerationIds {
  tripPlanId: number | string;
  chatRoomId: number | string;
}

/** The HTTP half: startTripPlanGeneration and cancelTripPlanGeneration of the plan. */
export interface GenerationCalls {
  start(): Promise<unknown>;
  cancel(): Promise<unknown>;
}

export interface GenerationHandlers {
  /** each message of the schedule channel (the days, as they are saved), once, in order */
  onDay?: (message: ChannelPayloads['scheduleUpdates'], position: Position | null) => void;
  /** each message of the chat channel (the days' summaries, then the run's end) */
  onChat?: (message: ChannelPayloads['chatStream'], position: Position | null) => void;
  /** each message of the errors channel */
  onError?: (message: ChannelPayloads['errors'], position: Position | null) => void;
  /** messages may be missing: once per loss */
  onContinuityLost?: (event: ContinuityLostEvent) => void;
  /** aborting cancels the run (GenerationCalls.cancel); generate() then resolves 'cancelled' */
  signal?: AbortSignal;
  /** read a log's state again on a loss (SubscribeOptions.refetch) */
  refetch?: boolean;
}

let generations = 0;

/** Subscribes, starts the run once every subscription is live, and resolves with how the run ended; unsubscribes at the end. */
export async function generate(
  connection: RealtimeConnection,
  ids: GenerationIds,
  calls: GenerationCalls,
  handlers: GenerationHandlers = {},
): Promise<GenerationOutcome> {
  const scope = `generation ${++generations} of plan ${ids.tripPlanId}`;
  const outcome = deferred<GenerationOutcome>();
  let started = false;
  const losses = new Set<number>();
  const follow = <C extends ReceivableChannel>(
    channel: C,
    onMessage?: (payload: ChannelPayloads[C], position: Position | null) => void,
  ): SubscriptionHandler<C> => ({
    onMessage(payload, position) {
      const end = started ? runEndOf(channel, payload) : null;
      try {
        onMessage?.(payload, position);
      } finally {
        if (end) outcome.resolve(end);
      }
    },
    onContinuityLost(event) {
      // Each subscription of the log that lost messages gets its copy; the caller hears of the loss once.
      if (losses.has(event.loss)) return;
      losses.add(event.loss);
      handlers.onContinuityLost?.(event as unknown as ContinuityLostEvent);
    },
  });
  const options = { scope, ...(handlers.refetch === undefined ? {} : { refetch: handlers.refetch }) };
  const made: PromiseSettledResult<Pick<RealtimeSubscription<ReceivableChannel>, 'unsubscribe'>>[] = await Promise.allSettled([
    connection.subscribe('scheduleUpdates', { tripPlanId: ids.tripPlanId }, follow('scheduleUpdates', handlers.onDay), options),
    connection.subscribe('chatStream', { chatRoomId: ids.chatRoomId }, follow('chatStream', handlers.onChat), options),
    connection.subscribe('errors', { chatRoomId: ids.chatRoomId }, follow('errors', handlers.onError), options),
  ]);
  const subscriptions = made.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const { signal } = handlers;
  let startDone: Promise<unknown> = Promise.resolve();
  const onAbort = () => {
    void startDone
      .then(() => calls.cancel())
      .then(
        () => outcome.resolve('cancelled'),
        (error: unknown) => outcome.reject(error),
      );
  };
  const stopWatching = connection.on('failed', ({ error }) => outcome.reject(error));
  try {
    const refused = made.find((result) => result.status === 'rejected');
    if (refused) throw refused.reason instanceof Error ? refused.reason : new Error(String(refused.reason));
    if (signal?.aborted) return 'cancelled';
    connection.expectRun(scope);
    started = true;
    signal?.addEventListener('abort', onAbort, { once: true });
    startDone = calls.start();
    await startDone;
    return await outcome.promise;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    stopWatching();
    await Promise.allSettled(subscriptions.map((subscription) => subscription.unsubscribe()));
  }
}
