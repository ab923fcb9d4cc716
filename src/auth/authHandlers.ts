// Handlers of the Auth operations.
import type { Handlers } from '../../generated/operations.js';
import { principalOf } from '../http/principal.js';
import type { RequestContext } from '../services.js';

export const authHandlers: Pick<Handlers<RequestContext>, 'devLogin' | 'reissueToken' | 'logout'> = {
  async devLogin({ body }, ctx) {
    const { tokens } = await ctx.services.auth.signIn({ email: body.email, name: body.name, provider: 'DEV' });
    return { status: 200, body: tokens };
  },

  async reissueToken({ body }, ctx) {
    return { status: 200, body: await ctx.services.auth.reissue(body.refreshToken) };
  },

  logout(_request, ctx) {
    ctx.services.auth.logout(principalOf(ctx));
    return { status: 204 };
  },
};
