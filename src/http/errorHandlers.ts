// What a request gets when it found no route or failed. No route: 405 with Allow when the path is
// documented for other methods, else 404. A thrown error: its AppError; 503 COMMON503 when the
// storage refused the write (nothing of the request was saved, so the client may retry); anything
// else 500 COMMON500, logged, without internals. An error the operation does not document becomes
// COMMON500 too, so even error bodies keep to the spec.
import type { Hono } from 'hono';
import type { OperationId } from '../../generated/operations.js';
import type { Logger } from '../kernel/logger.js';
import { AppError } from '../kernel/appError.js';
import { renderError } from '../kernel/envelope.js';
import type { HttpEnv } from './httpEnv.js';
import { allowedMethods } from './operationRouter.js';
import { respondJson } from './responseHeaders.js';
import type { ResponseChecker } from './responseValidation.js';

export interface ErrorHandlerOptions {
  log: Logger;
  checker: ResponseChecker;
  /** operations left out of this server: their paths answer 404 or 405 */
  disabled: ReadonlySet<OperationId>;
  /** the COMMON503 AppError of a storage failure, else null (db/storageFailure.ts) */
  storageUnavailable: (error: unknown) => AppError | null;
}

export function handleErrors(app: Hono<HttpEnv>, { log, checker, disabled, storageUnavailable }: ErrorHandlerOptions): void {
  app.notFound((c) => {
    const allow = allowedMethods(c.req.path, disabled);
    const error =
      allow.length > 0
        ? new AppError('COMMON405', `${c.req.method} is not allowed on ${c.req.path}; use ${allow.join(', ')}.`, { headers: { Allow: allow.join(', ') } })
        : new AppError('COMMON404', `No route for ${c.req.method} ${c.req.path}.`);
    const rendered = renderError(error, c.req.path);
    return respondJson(c, rendered.body, rendered.status, rendered.headers);
  });

  app.onError((err, c) => {
    const route = c.get('route');
    let error: AppError;
    const unavailable = storageUnavailable(err);
    if (unavailable) {
      // Nothing of the request was saved (a failed transaction rolls back): the client may retry.
      if (!(err instanceof AppError))
        (c.get('log') ?? log).warn({ err, code: (err as { code?: unknown }).code, operationId: route?.operationId }, 'storage cannot take writes');
      error = unavailable;
    } else if (err instanceof AppError) {
      error = err;
    } else {
      (c.get('log') ?? log).error({ err, operationId: route?.operationId }, 'unexpected error');
      error = new AppError('COMMON500');
    }
    let rendered = renderError(error, c.req.path);
    if (route && checker.check(route, rendered.status, rendered.headers, rendered.body).length > 0) {
      rendered = renderError(new AppError('COMMON500'), c.req.path);
    }
    return respondJson(c, rendered.body, rendered.status, rendered.headers);
  });
}
