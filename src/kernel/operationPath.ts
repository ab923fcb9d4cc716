// The concrete path of an operation of the spec (e.g. for a Location header), filled from the
// generated route table, so no handler spells a path by hand.
import type { OperationId } from '../../generated/operations.js';
import { routes } from '../../generated/routes.js';
import { fillTemplate } from '../text/fillTemplate.js';

export function operationPath(operationId: OperationId, parameters: Record<string, string | number>): string {
  const route = routes.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`operation ${operationId} is not in the route table`);
  return fillTemplate(route.path, parameters);
}
