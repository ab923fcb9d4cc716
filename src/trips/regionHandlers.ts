// listRegions: the regions the configured planner supports (public; openapi.yaml).
import type { Handlers } from '../../generated/operations.js';
import type { PlannerRegions } from '../catalogue/plannerRegions.js';
import type { RequestContext } from '../kernel/requestContext.js';

export function createRegionHandlers({ regions }: { regions: PlannerRegions }): Pick<Handlers<RequestContext>, 'listRegions'> {
  return {
    listRegions() {
      return { status: 200, body: regions.list() };
    },
  };
}
