// Handlers of the OpenID Connect sign-in operations (absent when OIDC is not configured: app.ts).
import type { Handlers } from '../../generated/operations.js';
import type { RequestContext } from '../kernel/requestContext.js';
import type { OidcSignIn } from './oidcSignIn.js';

type OidcHandlers = Pick<Handlers<RequestContext>, 'startOidcSignIn' | 'completeOidcSignIn' | 'exchangeOidcSignInCode'>;

/** `oidc` null: the operations are left out of the server, so these handlers are never called. */
export function createOidcHandlers({ oidc }: { oidc: OidcSignIn | null }): OidcHandlers {
  const signIn = () => {
    if (!oidc) throw new Error('OpenID Connect sign-in is not configured; its operations must be disabled');
    return oidc;
  };
  return {
    async startOidcSignIn({ query }, ctx) {
      const { location, setCookie } = await signIn().start(query, ctx.clientAddress());
      return { status: 302, headers: { Location: location, 'Set-Cookie': setCookie, 'Cache-Control': 'no-store' } };
    },

    async completeOidcSignIn({ query }, ctx) {
      const { location, setCookie } = await signIn().complete(ctx.cookie(signIn().loginCookie), query, ctx.log);
      return { status: 302, headers: { Location: location, 'Set-Cookie': setCookie, 'Cache-Control': 'no-store' } };
    },

    async exchangeOidcSignInCode({ body }, ctx) {
      const { tokens, setCookie } = await signIn().exchange(body, ctx.cookie(signIn().loginCookie));
      return { status: 200, body: tokens, headers: { 'Set-Cookie': setCookie, 'Cache-Control': 'no-store' } };
    },
  };
}
