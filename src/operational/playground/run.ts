// One trip, from the form to its end, with the client package: the trip is created
// (createTripPlanSession), then the client's generate flow subscribes to its channels, starts the
// run once they are live and follows it: each day as it arrives, the chat's summaries, the errors
// channel, a loss of continuity (the days are then shown as saved, from the listDailyPlans answer
// the client read again). "Cancel" aborts the flow (the client cancels the run); "Drop the
// connection" closes the socket under it.
import type {
  components,
  ContinuityLostEvent,
  GenerationIds,
  GenerationOutcome,
  OperationId,
  OperationResults,
  RealtimeConnection,
  RebuildOperation,
  RefetchResult,
  TripClient,
} from '@trip-itinerary/client';
import { failure as failureText } from './account.js';
import type { ChatLog } from './chatLog.js';
import type { ConnectionLog } from './connectionLog.js';
import type { DayList } from './days.js';
import { element } from './page.js';

type TripRequest = components['schemas']['TripPlanCreateRequest'];

/** A trip whose run ended, and how. */
export interface EndedRun extends GenerationIds {
  outcome: GenerationOutcome;
}

export interface RunnerParts {
  client: TripClient;
  connection: () => Promise<RealtimeConnection>;
  days: DayList;
  chat: ChatLog;
  log: ConnectionLog;
  /** the problem line; null clears it */
  report: (text: string | null) => void;
}

const dayCount = (count: number) => `${count} ${count === 1 ? 'day' : 'days'}`;
const outcomeText: Record<GenerationOutcome, (days: number) => string> = {
  completed: (days) => `Completed: ${dayCount(days)}.`,
  cancelled: (days) => `Cancelled after ${dayCount(days)}.`,
  failed: (days) => `Failed after ${dayCount(days)}.`,
};

/** What the client read again on a loss with `operationId`, when it could: the operation's result, as its call answered it. */
function refetched<K extends RebuildOperation & OperationId>(event: ContinuityLostEvent, operationId: K): OperationResults[K] | undefined {
  const read = event.refetched?.find((result): result is RefetchResult & { ok: true } => result.operationId === operationId && result.ok);
  return read?.value as OperationResults[K] | undefined;
}

/**
 * `client`: the page's TripClient; `connection()`: its real-time connection with the page's
 * listeners; `days`, `chat`, `log`: the page's lists; `report`: the problem line. Returns `start(request)`, which resolves with the trip and how its run ended.
 */
export function createRunner({ client, connection, days, chat, log, report }: RunnerParts): (request: TripRequest) => Promise<EndedRun | null> {
  const status = element('run-status');
  const ids = element('run-ids');
  const cancel = element<HTMLButtonElement>('cancel-run');
  const drop = element<HTMLButtonElement>('drop-connection');
  element('run').hidden = false;
  drop.addEventListener('click', () => log.drop());
  let current: AbortController | null = null;
  cancel.addEventListener('click', () => {
    status.textContent = 'Cancelling…';
    current?.abort();
  });

  const progress = (plan: TripRequest) => `Generating: ${days.count} of ${plan.duration} days.`;

  /** After a loss (the connection's log says so): what the client read again, the days and the chat as saved. */
  function rebuild(event: ContinuityLostEvent) {
    const savedDays = refetched(event, 'listDailyPlans');
    if (savedDays?.ok) days.showAll(savedDays.data);
    const savedChat = refetched(event, 'listChatMessages');
    if (savedChat?.ok) chat.showSaved(savedChat.data.content);
  }

  return async function start(request) {
    report(null);
    const created = await client.operations.createTripPlanSession({ body: request });
    if (!created.ok) {
      report(`createTripPlanSession: ${failureText(created)}`);
      return null;
    }
    const { tripPlanId, chatRoomId } = created.data;
    ids.textContent = `trip ${tripPlanId}, chat room ${chatRoomId}`;
    days.clear();
    chat.clear();
    current = new AbortController();
    cancel.disabled = false;
    drop.disabled = false;
    status.textContent = progress(request);
    try {
      // The page's own connection first: its events are in the connection log from the start.
      await connection();
      const outcome = await client.generate(
        { tripPlanId, chatRoomId },
        {
          signal: current.signal,
          refetch: true,
          onDay(message) {
            if (message.type === 'UPDATE_STARTED') return;
            days.arrived(message.dailyPlan);
            status.textContent = progress(request);
          },
          onChat: (message) => chat.received(message),
          onError: (error) => report(`${error.code}: ${error.message}`),
          onContinuityLost: rebuild,
        },
      );
      status.textContent = outcomeText[outcome](days.count);
      status.dataset.outcome = outcome;
      return { tripPlanId, chatRoomId, outcome };
    } catch (error) {
      report(`The run ended with an error: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    } finally {
      current = null;
      cancel.disabled = true;
    }
  };
}
