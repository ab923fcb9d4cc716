// 404 for an unknown path and 405 (with `Allow`) for a known path with another method, rendered by
// the service's own error renderer so the mock's errors have the real server's shape and codes.
import { AppError, renderError } from '../../src/index.js';

function render(error: AppError, path: string): Response {
  const { status, body, headers } = renderError(error, path);
  return new Response(JSON.stringify(body), { status, headers: { ...headers, 'content-type': 'application/json' } });
}

export function routeNotFound(method: string, path: string): Response {
  return render(new AppError('COMMON404', `No route for ${method} ${path}.`), path);
}

export function methodNotAllowed(method: string, path: string, allow: string[]): Response {
  return render(new AppError('COMMON405', `${method} is not allowed on ${path}; use ${allow.join(', ')}.`, { headers: { Allow: allow.join(', ') } }), path);
}
