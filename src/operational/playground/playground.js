// The playground page's script (bundled with what it imports by `npm run build`): sign in, then a
// trip from the form. The <main> element's data attributes name the operations' paths.
/* global document */
import { callOperation, storedTokens } from '../signIn/tabSignIn.js';
import { setUpAccount } from './account.js';
import { prepareTripForm, tripRequestOf } from './tripForm.js';

const paths = document.querySelector('main').dataset;
const problem = document.getElementById('problem');
const form = document.getElementById('trip-form');
const submit = form.querySelector('button[type="submit"]');
const tripState = document.getElementById('trip-state');
document.getElementById('script-state').remove();

function report(text) {
  problem.hidden = text === null;
  problem.textContent = text ?? '';
}

let signedIn = false;
let formReady = false;
const enableForm = () => (submit.disabled = !(signedIn && formReady));

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const { request, problem: missing } = tripRequestOf(form);
  if (missing) return report(missing);
  report(null);
  const answer = await callOperation(paths.trips, { method: 'POST', body: request, token: storedTokens()?.accessToken });
  if (!answer.ok) return report(`createTripPlanSession answered ${answer.status}: ${answer.data?.code ?? ''} ${answer.data?.message ?? ''}`);
  tripState.textContent = `Trip ${answer.data.tripPlanId} created, its chat room ${answer.data.chatRoomId}.`;
});

await Promise.all([
  prepareTripForm(form, paths.regions).then(
    () => ((formReady = true), enableForm()),
    (error) => report(`The regions could not be read: ${error.message}`),
  ),
  setUpAccount(paths, { onSignedIn: () => ((signedIn = true), enableForm()), report }),
]);
