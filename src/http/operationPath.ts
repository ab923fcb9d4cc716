// The concrete path of an operation of the spec (e.g. for a Location header), filled from the
// generated route table, so no handler spells a path by hand.
import type { OperationId } from '../../generated/operations.js';
import { routes } from '../../generated/routes.js';

export function operationPath(operationId: OperationId, parameters: Record<string, string | number>): string {
  const route = routes.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`operation ${operationId} is not in the route table`);
  return route.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    if (!(name in parameters)) throw new Error(`${operationId} needs path parameter ${name}`);
    return encodeURIComponent(String(parameters[name]));
  });
}
