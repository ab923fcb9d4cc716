// Secured operations always have a principal (the router authenticates before the handler runs);
// this turns that guarantee into a type.
import type { Principal } from '../auth/authService.js';
import type { RequestContext } from '../services.js';
import { AppError } from './appError.js';

export function principalOf(ctx: RequestContext): Principal {
  if (!ctx.principal) throw new AppError('AUTH011');
  return ctx.principal;
}
