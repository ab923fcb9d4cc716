// `npm run demo`: the documented generation flow against a running server, printed as it streams:
// dev-login -> create a trip -> STOMP CONNECT -> subscribe to schedule, chat and errors and wait for
// the three RECEIPTs -> start -> each day and its summary as they arrive -> COMPLETED; then one chat
// edit ("swap stop 1 and 2 on day 1") and the saved plan read back over HTTP.
import { ServerUnreachableError } from '../client/httpJson.js';
import { wsUrl } from '../../conformance/index.js';
import { connectStomp } from '../client/stompConnection.js';
import { ApiError, createTripApi, type DailyPlan } from '../client/tripApi.js';
import { dayBlock } from './dayBlock.js';
import { demoUsage, parseDemoOptions, UsageError, type DemoOptions } from './demoOptions.js';
import { terminalWriter } from './terminalWriter.js';

/** Ends the demo early with a message and an exit code (1 failed, 2 timed out). */
class DemoExit extends Error {
  constructor(
    message: string,
    readonly code: 1 | 2,
  ) {
    super(message);
  }
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const editRequest = 'swap stop 1 and 2 on day 1';
const out = terminalWriter();

async function runDemo(options: DemoOptions): Promise<void> {
  const { trip } = options;
  const api = createTripApi(options.baseUrl);
  out.line(`Service ${options.baseUrl}`);
  const token = await api.devLogin(options.email);
  out.line(`Signed in as ${options.email} (dev-login)`);
  const { tripPlanId, chatRoomId } = await api.createTrip(token, trip);
  out.line(
    `Created trip plan ${tripPlanId} (chat room ${chatRoomId}): ${trip.duration} days in ${trip.region} from ${trip.startDate}, ${trip.themes.join(', ')}`,
  );

  const stomp = await connectStomp(wsUrl(options.baseUrl), token);
  let phase: 'generation' | 'edit' | 'finished' = 'generation';
  // Everything that ends the demo early (errors channel, cancel, lost connection, timeout) rejects
  // this one promise, and every wait below races it.
  let abort!: (exit: DemoExit) => void;
  const aborted = new Promise<never>((_resolve, reject) => (abort = reject));
  aborted.catch(() => undefined);
  const until = <T>(promise: Promise<T>) => Promise.race([promise, aborted]);
  void stomp.closed.then((reason) => phase !== 'finished' && abort(new DemoExit(`the STOMP connection closed: ${reason}`, 1)));

  const completed = deferred<void>();
  const updatedDay = deferred<DailyPlan>();
  const answer = deferred<string>();
  let streamed = '';

  try {
    await stomp.subscribe('scheduleUpdates', { tripPlanId }, (message) => {
      if (message.type === 'DAILY_PLAN_GENERATED' && message.dailyPlan) {
        out.line();
        out.line(dayBlock(message.dailyPlan));
        out.line();
      } else if (message.type === 'UPDATE_STARTED') {
        out.line(`... ${message.message ?? 'updating the plan'}`);
      } else if (message.type === 'UPDATED' && message.dailyPlan) {
        out.line(`Updated ${dayBlock(message.dailyPlan)}`);
        updatedDay.resolve(message.dailyPlan);
      }
    });
    await stomp.subscribe('chatStream', { chatRoomId }, (message) => {
      switch (message.messageStreamType) {
        case 'CHAT':
          if (!message.isComplete) {
            if (streamed === '' && phase === 'edit') out.stream('Assistant: ');
            streamed += message.message;
            out.stream(message.message);
            return;
          }
          // The full text repeats the chunks already printed; show it only when none came before.
          if (streamed === '') out.stream(`${phase === 'edit' ? 'Assistant: ' : ''}${message.message}`);
          out.endStream();
          if (streamed !== '' && streamed !== message.message) out.line('(warning: the streamed chunks do not add up to the full text)');
          streamed = '';
          if (phase === 'edit') answer.resolve(message.message);
          return;
        case 'COMPLETED':
          out.line();
          out.line(`COMPLETED: ${message.message}`);
          completed.resolve();
          return;
        case 'UPDATED':
          out.line(`Chat: ${message.message}`);
          return;
        case 'CANCELLED':
          abort(new DemoExit(`the generation was cancelled: ${message.message}`, 1));
      }
    });
    await stomp.subscribe('errors', { chatRoomId }, (error) => {
      out.line(`errors channel: ${error.code} ${error.message} (${error.path})`);
      abort(new DemoExit(`the errors channel reported ${error.code}`, 1));
    });
    out.line('STOMP connected; schedule, chat and errors subscriptions live (RECEIPT for each)');

    const timer = setTimeout(
      () =>
        abort(
          new DemoExit(
            `timed out after ${options.timeoutSeconds} s waiting for ${phase === 'generation' ? 'the generation to complete' : 'the answer to the edit'}`,
            2,
          ),
        ),
      options.timeoutSeconds * 1000,
    );
    try {
      // Printed before the POST: its answer may arrive after the first streamed chunks.
      out.line(`Starting the generation (POST /api/v1/trips/${tripPlanId})`);
      await until(api.startGeneration(token, tripPlanId));
      await until(completed.promise);
      phase = 'edit';
      out.line();
      out.line(`You: ${editRequest}`);
      await until(stomp.send('chatMessages', { chatRoomId }, { content: editRequest, messageContentType: 'TEXT' }));
      await until(Promise.all([updatedDay.promise, answer.promise]));
    } finally {
      clearTimeout(timer);
    }
    phase = 'finished';

    const days = await api.listDailyPlans(token, tripPlanId);
    const plan = await api.getTripPlan(token, tripPlanId);
    const stops = days.reduce((sum, day) => sum + day.scheduledPlaces.length, 0);
    out.line();
    out.line(`Saved (GET /api/v1/trips/daily-plans/${tripPlanId}): ${days.length} days, ${stops} stops; plan status ${plan.generationStatus}`);
  } finally {
    phase = 'finished';
    await stomp.disconnect();
  }
}

/** One readable line on stderr instead of a stack trace; returns the exit code. */
function report(error: unknown, baseUrl: string): number {
  const fail = (message: string, code = 1) => {
    out.endStream();
    process.stderr.write(`demo: ${message}\n`);
    return code;
  };
  if (error instanceof DemoExit) return fail(error.message, error.code);
  if (error instanceof UsageError) return fail(`${error.message}\n${demoUsage}`);
  if (error instanceof ServerUnreachableError)
    return fail(`${error.message}. Is the service running? Start it with \`npm start\`, or point --base-url (or BASE_URL) at it.`);
  if (error instanceof ApiError) {
    const hint =
      error.operation === 'devLogin' && error.status === 404
        ? ' (dev-login is off on this server: it is on by default only with NODE_ENV=development on a loopback HOST; elsewhere AUTH_DEV_LOGIN=true, never in production)'
        : error.status === 429
          ? ' (rate limited: wait, or run the server with RATE_LIMIT_PER_MINUTE=0)'
          : '';
    return fail(`${error.message}${hint}`);
  }
  return fail(`${error instanceof Error ? error.message : String(error)} (service ${baseUrl})`);
}

let exitCode = 0;
let baseUrl = process.env.BASE_URL ?? 'http://localhost:8080';
try {
  const options = parseDemoOptions(process.argv.slice(2), process.env);
  if (options) {
    baseUrl = options.baseUrl;
    await runDemo(options);
  } else {
    out.line(demoUsage);
  }
} catch (error) {
  exitCode = report(error, baseUrl);
}
// Exit once stdout is flushed: a pipe would otherwise lose the tail of the itinerary.
process.stdout.write('', () => process.exit(exitCode));
