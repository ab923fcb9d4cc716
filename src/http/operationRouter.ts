// Registers every operation of the generated route table on the Hono app: authenticate (bearerAuth),
// check the role (x-required-role), validate path/query/body with the generated validators, call
// the operation's handler, wrap its result in the envelope and check it against the spec.
import type { Context, Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import type { Handlers, OperationId } from '../../generated/operations.js';
import { routes, type RouteDefinition } from '../../generated/routes.js';
import { responseSerializers } from '../../generated/serializers.js';
import { operationValidators, type ValidateFunction } from '../../generated/validators.js';
import { AppError } from '../kernel/appError.js';
import { clientAddressOf } from './clientAddress.js';
import { envelope } from '../kernel/envelope.js';
import type { HttpEnv } from './httpEnv.js';
import type { Principal } from '../kernel/principal.js';
import { readJsonBody } from './readJsonBody.js';
import type { RequestContext } from '../kernel/requestContext.js';
import { requestOrigin } from '../kernel/requestOrigin.js';
import { respond, respondJson } from './responseHeaders.js';
import { readParams } from './requestParams.js';
import type { ResponseChecker } from './responseValidation.js';
import { toFieldErrors } from './validationErrors.js';

type AnyResult = { status: number; body?: unknown; headers?: Record<string, string>; contentType?: string };
type AnyHandler = (request: { path: unknown; query: unknown; body: unknown }, ctx: RequestContext) => AnyResult | Promise<AnyResult>;

export interface OperationRouterOptions {
  handlers: Handlers<RequestContext>;
  /** the caller of a secured operation, from its Authorization header; throws AUTH011, AUTH001, AUTH002 */
  authenticate(authorization: string | undefined): Promise<Principal>;
  checker: ResponseChecker;
  /** operations left out of this server (e.g. devLogin when AUTH_DEV_LOGIN is off) */
  disabled: ReadonlySet<OperationId>;
  /** who a request comes from (default: the connecting address, no proxy trusted) */
  clientAddress?: (c: Context) => string;
}

/** Throws COMMON001 with every failing field when `value` fails `validator`. */
function validate(validator: ValidateFunction, value: unknown, prefix: string): void {
  if (!validator(value)) throw new AppError('COMMON001', undefined, { fieldErrors: toFieldErrors(validator.errors, value, prefix) });
}

const connectingAddress = clientAddressOf(0);

async function runOperation(
  c: Context<HttpEnv>,
  route: RouteDefinition,
  handler: AnyHandler,
  options: Omit<OperationRouterOptions, 'handlers'>,
): Promise<Response> {
  c.set('route', route);
  const { checker } = options;
  const principal = route.secured ? await options.authenticate(c.req.header('authorization')) : null;
  if (route.requiredRole && principal?.role !== route.requiredRole) throw new AppError('COMMON403');

  const { path, query, body } = await readValidRequest(c, route);

  const ctx: RequestContext = {
    principal,
    requestId: c.get('requestId'),
    log: c.get('log'),
    path: c.req.path,
    accept: c.req.header('accept'),
    origin: () => requestOrigin(c),
    cookie: (name) => getCookie(c, name),
    header: (name) => c.req.header(name),
    clientAddress: () => (options.clientAddress ?? connectingAddress)(c),
  };
  const result = await handler({ path, query, body }, ctx);
  return sendResult(c, route, result, checker);
}

const noHeaders: Readonly<Record<string, string>> = Object.freeze({});

function sendResult(c: Context<HttpEnv>, route: RouteDefinition, result: AnyResult, checker: ResponseChecker): Response {
  const facts = route.responses[result.status];
  const headers = result.headers ?? noHeaders;
  // A handler names contentType only when it chose one of the response's other media types.
  const contentType = result.contentType ?? facts?.contentType ?? (result.body === undefined ? null : 'application/json');
  const payload = contentType === 'application/json' ? envelope(result.status, result.body) : result.body;
  const problems = checker.check(route, result.status, headers, contentType === null ? undefined : payload, result.contentType);
  if (problems.length > 0) throw new Error(`response of ${route.operationId} violates the spec: ${problems.join('; ')}`);
  if (contentType === null) return respond(c, null, result.status, headers);
  if (contentType === 'application/json') return respondJson(c, payload, result.status, headers, responseSerializers[route.operationId]?.[result.status]);
  return respond(c, String(payload), result.status, headers, `${contentType}; charset=utf-8`);
}

/**
 * Path, query and body of a request, checked against the operation's generated validators (strings
 * coerced, defaults applied): COMMON001 with every failing field, COMMON002 for a body that is not
 * JSON. Shared with the mock server (tools/mock), so its errors are the service's.
 */
export async function readValidRequest(
  c: Context,
  route: RouteDefinition,
): Promise<{ path: Record<string, unknown>; query: Record<string, unknown>; body: unknown }> {
  const validators = operationValidators[route.operationId];
  const params = readParams(c, route);
  // The size guard first: an oversized value is refused after linear work, before the full
  // validator's uniqueItems, patterns and formats see it (openapi.yaml, Trips tag, conventions).
  validate(validators.sizeGuards.params, params, '');
  validate(validators.params, params, '');
  let body: unknown;
  if (route.body && validators.body) {
    body = await readJsonBody(c, route.body.required);
    if (body !== undefined) {
      validate(validators.sizeGuards.body!, body, 'body');
      validate(validators.body, body, 'body');
    }
  }
  return { path: params.path, query: params.query, body };
}

export function registerOperations(app: Hono<HttpEnv>, options: OperationRouterOptions): void {
  registerOperationsOf(app, options.handlers, options);
}

/**
 * Registers the operations `handlers` has (and is not told to leave out), each checked and answered
 * as registerOperations does; the mock (tools/mock) serves the service's own documents this way.
 */
export function registerOperationsOf(app: Hono<HttpEnv>, handlers: Partial<Handlers<RequestContext>>, options: Omit<OperationRouterOptions, 'handlers'>): void {
  for (const route of routes) {
    const handler = handlers[route.operationId] as unknown as AnyHandler | undefined;
    if (!handler || options.disabled.has(route.operationId)) continue;
    app.on(route.method, route.honoPath, (c) => runOperation(c, route, handler, options));
  }
}

const matchers = routes.map((route) => ({ route, pattern: new RegExp(route.pattern) }));

/** The documented operation a concrete request path belongs to, if any. */
export function routeFor(method: string, path: string, disabled: ReadonlySet<OperationId> = new Set()): RouteDefinition | null {
  const bare = path.split('?')[0]!;
  return matchers.find(({ route, pattern }) => route.method === method.toUpperCase() && !disabled.has(route.operationId) && pattern.test(bare))?.route ?? null;
}

/** For 404 vs 405: the documented methods of the route whose path matches, if any. */
export function allowedMethods(path: string, disabled: ReadonlySet<OperationId>): string[] {
  return [...new Set(matchers.filter(({ route, pattern }) => !disabled.has(route.operationId) && pattern.test(path)).map(({ route }) => route.method))];
}
