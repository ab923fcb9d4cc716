// The playground's "Sign in": the tab's sign-in of the landing page (tabSignIn.js) when there is
// one, else dev-login with an e-mail (when the server has it on) or the identity provider (when
// one is configured), which comes back to this page. The <main> element's data attributes name
// the operations' paths and what the server offers.
/* global document, location, FormData */
import { callOperation, keepTokens, startOidcSignIn, takeOidcCode, whoIsSignedIn } from '../signIn/tabSignIn.js';

const failure = (answer) => `${answer.data?.code ?? answer.status} ${answer.data?.message ?? ''}`.trim();

/**
 * Shows who is signed in and offers to sign in; `onSignedIn(member)` once somebody is.
 * Problems (a refused dev-login or code) go to `report`.
 */
export async function setUpAccount(paths, { onSignedIn, report }) {
  const who = document.getElementById('who');
  const devLoginForm = document.getElementById('dev-login');
  const oidcSignIn = document.getElementById('oidc-sign-in');

  async function showWhoIsSignedIn() {
    const signedIn = await whoIsSignedIn({ mePath: paths.me, reissuePath: paths.reissue });
    if (!signedIn) return;
    const { member } = signedIn;
    who.textContent = `Signed in as ${member.name} (${member.email}, ${member.role}).`;
    if (devLoginForm) devLoginForm.hidden = true;
    if (oidcSignIn) oidcSignIn.hidden = true;
    onSignedIn(member);
  }

  devLoginForm?.addEventListener('submit', async (event) => {
    event.preventDefault();
    const answer = await callOperation(paths.devLogin, { method: 'POST', body: { email: new FormData(devLoginForm).get('email') } });
    if (!answer.ok) return report(`Dev-login refused: ${failure(answer)}`);
    keepTokens(answer.data);
    await showWhoIsSignedIn();
  });
  oidcSignIn?.addEventListener('click', () => void startOidcSignIn(paths.oidcStart, location.pathname));

  const returned = takeOidcCode();
  if (returned?.notStartedHere) report('Ignored a sign-in code of a sign-in not started here.');
  else if (returned) {
    const answer = await callOperation(paths.oidcExchange, { method: 'POST', body: returned });
    if (answer.ok) keepTokens(answer.data);
    else report(`Sign-in failed: ${failure(answer)}`);
  }
  await showWhoIsSignedIn();
}
