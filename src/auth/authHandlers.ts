// Handlers of the Auth operations.
import type { Handlers } from '../../generated/operations.js';
import { principalOf } from '../kernel/principal.js';
import type { RequestContext } from '../kernel/requestContext.js';
import type { AuthService } from './authService.js';

export function createAuthHandlers({ auth }: { auth: AuthService }): Pick<Handlers<RequestContext>, 'devLogin' | 'reissueToken' | 'logout'> {
  return {
    async devLogin({ body }) {
      const { tokens } = await auth.signIn({ email: body.email, name: body.name, provider: 'DEV' });
      return { status: 200, body: tokens };
    },

    async reissueToken({ body }) {
      return { status: 200, body: await auth.reissue(body.refreshToken) };
    },

    async logout(_request, ctx) {
      await auth.logout(principalOf(ctx));
      return { status: 204 };
    },
  };
}
