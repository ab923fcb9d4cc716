// The playground page's script (bundled with the client package by `npm run build`): sign in,
// then trips from the form, each generated with the client's generate flow, its days arriving
// live; cancel, chat once a run ended, and drop the connection to watch the client resume. The
// <main> element's data attributes say what the server offers to sign in with and the replay
// headers of asyncapi.yaml.
import { createTripClient, type RealtimeConnection } from '@trip-itinerary/client';
import { setUpAccount } from './account.js';
import { createChat } from './chat.js';
import { createChatLog } from './chatLog.js';
import { createConnectionLog } from './connectionLog.js';
import { createDayList } from './days.js';
import { element, submitButtonOf } from './page.js';
import { createRunner } from './run.js';
import { prepareTripForm, tripRequestOf } from './tripForm.js';
import { keepTokens, storedTokens } from '../signIn/tabSignIn.js';

const offer = document.querySelector('main')?.dataset ?? {};
const problem = element('problem');
const form = element<HTMLFormElement>('trip-form');
const submit = submitButtonOf(form);
element('script-state').remove();

function report(text: string | null) {
  problem.hidden = text === null;
  problem.textContent = text ?? '';
}

// The page names both (playgroundPage.ts, from asyncapi.yaml's x-delivery).
const log = createConnectionLog(element('connection-log'), element('connection-state'), {
  since: offer.sinceHeader ?? '',
  recovered: offer.recoveredHeader ?? '',
});
// The client package on this server: it starts with the tab's token pair and keeps every pair the
// server issues there; its STOMP connection (made on first use) runs over the page's watched WebSocket.
const client = createTripClient({ baseUrl: location.origin, tokens: storedTokens() ?? undefined, onTokens: keepTokens, webSocket: log.webSocket });
let opened: Promise<RealtimeConnection> | null = null;
/** the connection, and its events in the log once */
const connection = () =>
  (opened ??= client.realtime().then((live) => {
    live.on('connected', ({ reconnected }) => reconnected && log.log('Reconnected: every subscription is made again from its last message.'));
    live.on('disconnected', ({ errorCode, willReconnect }) =>
      log.log(`Disconnected${errorCode ? ` (${errorCode})` : ''}${willReconnect ? '; reconnecting' : ''}.`, 'dropped'),
    );
    live.on('continuityLost', (event) =>
      log.log(`Continuity lost on ${event.channel} (${event.reason}): read again with ${event.rebuildWith.join(', ')}.`, 'lost'),
    );
    return live;
  }));
const days = createDayList(element('days'));
const chatLog = createChatLog(element('chat-log'));
const run = createRunner({ client, connection, days, chat: chatLog, log, report });
const chat = createChat({ connection, days, chat: chatLog, report });

let signedIn = false;
let formReady = false;
let running = false;
const enableForm = () => (submit.disabled = running || !(signedIn && formReady));

async function runTrip() {
  const asked = tripRequestOf(form);
  if ('problem' in asked) return report(asked.problem);
  running = true;
  enableForm();
  try {
    await chat.leave();
    const ended = await run(asked.request);
    if (ended) await chat.follow(ended);
  } finally {
    running = false;
    enableForm();
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  void runTrip();
});

await Promise.all([
  prepareTripForm(form, client).then(
    () => ((formReady = true), enableForm()),
    (error: unknown) => report(`The regions could not be read: ${error instanceof Error ? error.message : String(error)}`),
  ),
  setUpAccount(client, offer, { onSignedIn: () => ((signedIn = true), enableForm()), report }),
]);
