// The landing page's sign-in: with dev-login (an e-mail, when the server has it on) or with the
// identity provider (when one is configured), the token pair kept for this tab (tabSignIn.js) where
// Swagger UI and the playground find it. Signed in, the page shows who (getMe), shows and copies the
// access token, and signs out (logout). The section's data attributes name the operations' paths,
// and name dev-login and the provider's start only when the server offers them.
/* global document, navigator, FormData */
import { callOperation as call, forgetTokens, keepTokens, startOidcSignIn, storedTokens, takeOidcCode, whoIsSignedIn } from './tabSignIn.js';

const paths = document.getElementById('sign-in-section').dataset;
const status = document.getElementById('sign-in-status');
const oidcSignIn = document.getElementById('sign-in');
const devLoginForm = document.getElementById('dev-login');
const signOut = document.getElementById('sign-out');
const tokenTools = document.getElementById('token-tools');
const tokenText = document.getElementById('access-token');
const showToken = document.getElementById('show-token');
const copyToken = document.getElementById('copy-token');
const copyState = document.getElementById('copy-state');

const failure = (answer) => `Sign-in failed: ${answer.data?.code ?? answer.status} ${answer.data?.message ?? ''}`.trim();

function showSignedOut(text) {
  status.textContent = text;
  if (oidcSignIn) oidcSignIn.hidden = false;
  if (devLoginForm) devLoginForm.hidden = false;
  signOut.hidden = true;
  tokenTools.hidden = true;
  tokenText.textContent = '';
  tokenText.hidden = true;
  showToken.textContent = 'Show access token';
  showToken.setAttribute('aria-expanded', 'false');
}

function showSignedIn(member, accessToken) {
  status.textContent = `Signed in as ${member.name} (${member.email}, ${member.role}).`;
  if (oidcSignIn) oidcSignIn.hidden = true;
  if (devLoginForm) devLoginForm.hidden = true;
  signOut.hidden = false;
  tokenTools.hidden = false;
  tokenText.textContent = accessToken;
  copyState.textContent = '';
}

async function showWhoIsSignedIn() {
  const signedIn = await whoIsSignedIn({ mePath: paths.me, reissuePath: paths.reissue });
  if (signedIn) showSignedIn(signedIn.member, signedIn.tokens.accessToken);
}

oidcSignIn?.addEventListener('click', (event) => {
  event.preventDefault();
  void startOidcSignIn(paths.oidcStart, '/');
});

devLoginForm?.addEventListener('submit', async (event) => {
  event.preventDefault();
  const email = new FormData(devLoginForm).get('email');
  const answer = await call(paths.devLogin, { method: 'POST', body: { email } });
  if (!answer.ok) {
    status.textContent = failure(answer);
    return;
  }
  keepTokens(answer.data);
  await showWhoIsSignedIn();
});

signOut.addEventListener('click', async () => {
  const tokens = storedTokens();
  if (tokens) await call(paths.logout, { method: 'POST', token: tokens.accessToken });
  forgetTokens();
  showSignedOut('Signed out.');
});

showToken.addEventListener('click', () => {
  tokenText.hidden = !tokenText.hidden;
  showToken.textContent = tokenText.hidden ? 'Show access token' : 'Hide access token';
  showToken.setAttribute('aria-expanded', String(!tokenText.hidden));
});

copyToken.addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText(tokenText.textContent);
    copyState.textContent = 'Copied.';
  } catch {
    // No clipboard outside secure contexts, or the browser said no: the token is shown to copy by hand.
    tokenText.hidden = false;
    copyState.textContent = 'The browser refused the clipboard: copy the token shown.';
  }
});

const returned = takeOidcCode();
if (returned?.notStartedHere) status.textContent = 'Ignored a sign-in code of a sign-in not started here.';
if (returned && !returned.notStartedHere) {
  const answer = await call(paths.oidcExchange, { method: 'POST', body: returned });
  if (answer.ok) {
    keepTokens(answer.data);
    await showWhoIsSignedIn();
  } else status.textContent = failure(answer);
} else await showWhoIsSignedIn();
