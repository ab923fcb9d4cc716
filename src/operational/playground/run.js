// One trip, from the form to its end, with the client package: the trip is created
// (createTripPlanSession), then the client's generate flow subscribes to its channels, starts the
// run once they are live and follows it: each day as it arrives, the chat's summaries, the errors
// channel, a loss of continuity (the days are then shown as saved, from the listDailyPlans answer
// the client read again). "Cancel" aborts the flow (the client cancels the run); "Drop the
// connection" closes the socket under it.
/* global document, AbortController */

const failureText = (result) => (result.error ? `${result.error.code} ${result.error.message}` : `HTTP ${result.status}`);

const dayCount = (count) => `${count} ${count === 1 ? 'day' : 'days'}`;
const outcomeText = {
  completed: (days) => `Completed: ${dayCount(days)}.`,
  cancelled: (days) => `Cancelled after ${dayCount(days)}.`,
  failed: (days) => `Failed after ${dayCount(days)}.`,
};

/**
 * `client`: the page's TripClient; `connection()`: its real-time connection with the page's
 * listeners; `days`, `chat`, `log`: the page's lists; `report`: the problem line. Returns `start(request)`, which resolves with the trip and how its run ended.
 */
export function createRunner({ client, connection, days, chat, log, report }) {
  const status = document.getElementById('run-status');
  const ids = document.getElementById('run-ids');
  const cancel = document.getElementById('cancel-run');
  const drop = document.getElementById('drop-connection');
  document.getElementById('run').hidden = false;
  drop.addEventListener('click', () => log.drop());
  let current = null;
  cancel.addEventListener('click', () => {
    status.textContent = 'Cancelling…';
    current?.abort();
  });

  const progress = (plan) => `Generating: ${days.count} of ${plan.duration} days.`;

  /** After a loss (the connection's log says so): what the client read again, the days and the chat as saved. */
  function rebuild(event) {
    const answer = (operationId) => event.refetched?.find((result) => result.operationId === operationId && result.ok)?.value;
    const savedDays = answer('listDailyPlans');
    if (savedDays?.ok) days.showAll(savedDays.data);
    const savedChat = answer('listChatMessages');
    if (savedChat?.ok) chat.showSaved(savedChat.data.content);
  }

  return async function start(request) {
    report(null);
    const created = await client.operations.createTripPlanSession({ body: request });
    if (!created.ok) return report(`createTripPlanSession: ${failureText(created)}`);
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
