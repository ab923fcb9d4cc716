// What handlers and workers are given: the process-wide services, built once in app.ts.
import type { AuthService, Principal } from './auth/authService.js';
import type { Config } from './config.js';
import type { Database, Db } from './db/database.js';
import type { EventBus } from './events/eventBus.js';
import type { RequestOrigin } from './http/requestOrigin.js';
import type { PlannerRegions } from './catalogue/plannerRegions.js';
import type { Logger } from './logger.js';

export interface Services {
  config: Config;
  database: Database;
  db: Db;
  log: Logger;
  clock: () => number;
  auth: AuthService;
  events: EventBus;
  /** the regions the configured planner supports (listRegions, TRIP107) */
  regions: PlannerRegions;
}

/** The second argument of every operation handler. */
export interface RequestContext {
  services: Services;
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
}
