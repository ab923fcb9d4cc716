// The landing page's sign-in: with dev-login (an e-mail, when the server has it on) or with the
// identity provider (when one is configured), the token pair kept for this tab (tabSignIn.js) where
// Swagger UI and the playground find it. Signed in, the page shows who (getMe), shows and copies the
// access token, and signs out (logout). The section's data attributes name the operations' paths,
// and name dev-login and the provider's start only when the server offers them.
import type { components } from '@trip-itinerary/client';
import { type Answer, callOperation as call, forgetTokens, keepTokens, startOidcSignIn, storedTokens, takeOidcCode, whoIsSignedIn } from './tabSignIn.js';

type Schemas = components['schemas'];

/** An element the section always has (signInSection.ts renders it). */
function present<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The sign-in section has no #${id}`);
  return element as T;
}

/** A path the section names (data-*); a missing one is a page that does not offer that way to sign in. */
function pathOf(name: string): string {
  const value = paths[name];
  if (value === undefined) throw new Error(`The sign-in section names no data-${name} path`);
  return value;
}

const paths = present('sign-in-section').dataset;
const status = present('sign-in-status');
const oidcSignIn = document.getElementById('sign-in');
const devLoginForm = document.getElementById('dev-login') as HTMLFormElement | null;
const signOut = present('sign-out');
const tokenTools = present('token-tools');
const tokenText = present('access-token');
const showToken = present('show-token');
const copyToken = present('copy-token');
const copyState = present('copy-state');

function failure(answer: Answer<unknown>): string {
  const error = answer.ok ? null : answer.data;
  return `Sign-in failed: ${error?.code ?? answer.status} ${error?.message ?? ''}`.trim();
}

function showSignedOut(text: string) {
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

function showSignedIn(member: Schemas['MemberResponse'], accessToken: string) {
  status.textContent = `Signed in as ${member.name} (${member.email}, ${member.role}).`;
  if (oidcSignIn) oidcSignIn.hidden = true;
  if (devLoginForm) devLoginForm.hidden = true;
  signOut.hidden = false;
  tokenTools.hidden = false;
  tokenText.textContent = accessToken;
  copyState.textContent = '';
}

async function showWhoIsSignedIn() {
  const signedIn = await whoIsSignedIn({ mePath: pathOf('me'), reissuePath: pathOf('reissue') });
  if (signedIn) showSignedIn(signedIn.member, signedIn.tokens.accessToken);
}

oidcSignIn?.addEventListener('click', (event) => {
  event.preventDefault();
  void startOidcSignIn(pathOf('oidcStart'), '/');
});

async function signInWithEmail(form: HTMLFormElement) {
  const email = new FormData(form).get('email');
  const body: Schemas['DevLoginRequest'] = { email: typeof email === 'string' ? email : '' };
  const answer = await call<Schemas['TokenResponse']>(pathOf('devLogin'), { method: 'POST', body });
  if (!answer.ok) {
    status.textContent = failure(answer);
    return;
  }
  keepTokens(answer.data);
  await showWhoIsSignedIn();
}

async function signOutHere() {
  const tokens = storedTokens();
  if (tokens) await call(pathOf('logout'), { method: 'POST', token: tokens.accessToken });
  forgetTokens();
  showSignedOut('Signed out.');
}

async function copyAccessToken() {
  try {
    await navigator.clipboard.writeText(tokenText.textContent ?? '');
    copyState.textContent = 'Copied.';
  } catch {
    // No clipboard outside secure contexts, or the browser said no: the token is shown to copy by hand.
    tokenText.hidden = false;
    copyState.textContent = 'The browser refused the clipboard: copy the token shown.';
  }
}

devLoginForm?.addEventListener('submit', (event) => {
  event.preventDefault();
  void signInWithEmail(devLoginForm);
});
signOut.addEventListener('click', () => void signOutHere());

showToken.addEventListener('click', () => {
  tokenText.hidden = !tokenText.hidden;
  showToken.textContent = tokenText.hidden ? 'Show access token' : 'Hide access token';
  showToken.setAttribute('aria-expanded', String(!tokenText.hidden));
});

copyToken.addEventListener('click', () => void copyAccessToken());

const returned = takeOidcCode();
if (returned && 'notStartedHere' in returned) status.textContent = 'Ignored a sign-in code of a sign-in not started here.';
if (returned && !('notStartedHere' in returned)) {
  const answer = await call<Schemas['TokenResponse']>(pathOf('oidcExchange'), { method: 'POST', body: returned });
  if (answer.ok) {
    keepTokens(answer.data);
    await showWhoIsSignedIn();
  } else status.textContent = failure(answer);
} else await showWhoIsSignedIn();
