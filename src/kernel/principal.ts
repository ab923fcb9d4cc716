// Who made a request: the router authenticates secured operations before their handler runs, so
// they always have a principal; principalOf turns that guarantee into a type.
import type { components } from '../../generated/openapi.js';
import { AppError } from './appError.js';

export interface Principal {
  memberId: number;
  sessionId: string;
  /** the session's role, decided at sign-in (auth/roles.ts) */
  role: components['schemas']['MemberResponse']['role'];
  /** epoch ms when the access token expires (the STOMP side closes the connection then) */
  expiresAt: number;
}

export function principalOf(ctx: { principal: Principal | null }): Principal {
  if (!ctx.principal) throw new AppError('AUTH011');
  return ctx.principal;
}
