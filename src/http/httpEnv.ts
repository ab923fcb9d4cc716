// The per-request variables of the Hono app.
import type { RouteDefinition } from '../../generated/routes.js';
import type { Logger } from '../kernel/logger.js';

export type HttpEnv = {
  Variables: {
    requestId: string;
    log: Logger;
    /** set once the request reached a documented operation */
    route: RouteDefinition | undefined;
    /** headers every response of this request carries (responseHeaders.ts) */
    responseHeaders: Record<string, string> | undefined;
  };
};
