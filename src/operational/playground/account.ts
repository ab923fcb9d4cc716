// The playground's "Sign in", through the client package: the tab's sign-in of the landing page
// when there is one (its token pair, in sessionStorage, is what the client starts with and where
// it keeps every pair the server issues), else dev-login with an e-mail (when the server has it
// on) or the identity provider (when one is configured), which comes back to this page.
import type { components, Failure, TripClient } from '@trip-itinerary/client';
import { element, fieldText } from './page.js';
import { forgetTokens, startOidcSignIn, storedTokens, takeOidcCode } from '../signIn/tabSignIn.js';

export const failure = (result: Failure): string => (result.error ? `${result.error.code} ${result.error.message}` : `HTTP ${result.status}`);

export interface AccountHooks {
  onSignedIn: (member: components['schemas']['MemberResponse']) => void;
  report: (text: string) => void;
}

/**
 * Shows who is signed in and offers to sign in; `onSignedIn(member)` once somebody is. `offer`:
 * the <main> element's data attributes (dev-login's path when on, the provider's start when configured).
 */
export async function setUpAccount(client: TripClient, offer: DOMStringMap, { onSignedIn, report }: AccountHooks): Promise<void> {
  const who = element('who');
  const devLoginForm = document.getElementById('dev-login') as HTMLFormElement | null;
  const oidcSignIn = document.getElementById('oidc-sign-in');

  async function showWhoIsSignedIn() {
    // Nobody signed in in this tab: nothing to ask (a 401 would only fill the console).
    if (!storedTokens()) return;
    const me = await client.operations.getMe();
    if (!me.ok) {
      // No token, or a session that ended (an expired access token was already reissued by the client once).
      if (me.status === 401) forgetTokens();
      return;
    }
    who.textContent = `Signed in as ${me.data.name} (${me.data.email}, ${me.data.role}).`;
    if (devLoginForm) devLoginForm.hidden = true;
    if (oidcSignIn) oidcSignIn.hidden = true;
    onSignedIn(me.data);
  }

  async function signInWithEmail(form: HTMLFormElement) {
    const answer = await client.operations.devLogin({ body: { email: fieldText(form, 'email') } });
    if (!answer.ok) return report(`Dev-login refused: ${failure(answer)}`);
    await showWhoIsSignedIn();
  }

  devLoginForm?.addEventListener('submit', (event) => {
    event.preventDefault();
    void signInWithEmail(devLoginForm);
  });
  // Offered only when the page names the provider's start (data-oidc-start).
  oidcSignIn?.addEventListener('click', () => void startOidcSignIn(offer.oidcStart ?? '', location.pathname));

  const returned = takeOidcCode();
  if (returned && 'notStartedHere' in returned) report('Ignored a sign-in code of a sign-in not started here.');
  else if (returned) {
    const answer = await client.operations.exchangeOidcSignInCode({ body: returned });
    if (!answer.ok) report(`Sign-in failed: ${failure(answer)}`);
  }
  await showWhoIsSignedIn();
}
