// The second argument of every operation handler: who asks, and the facts of the request that a
// handler may need. What a handler works with (the database, the clock, the event bus, ...) it is
// given when it is created (see src/composition/operationHandlers.ts).
import type { Logger } from './logger.js';
import type { Principal } from './principal.js';
import type { RequestOrigin } from './requestOrigin.js';

export interface RequestContext {
  /** null only on public operations */
  principal: Principal | null;
  requestId: string;
  log: Logger;
  /** the request path, for error bodies */
  path: string;
  /** the request's Accept header, for operations documenting several media types */
  accept: string | undefined;
  /** scheme, host and port the request reached (computed on demand) */
  origin(): RequestOrigin;
  /** a cookie of the request (the OpenID Connect sign-in ties its pending state to the browser with one) */
  cookie(name: string): string | undefined;
  /** a header of the request (GET /metrics reads its own bearer token, not an access token) */
  header(name: string): string | undefined;
  /** the client's address as the rate limit counts it (clientAddress.ts: behind TRUST_PROXY_HOPS proxies, the one they vouch for) */
  clientAddress(): string;
}
