// listRegions: the regions the configured planner supports (public; openapi.yaml).
import type { Handlers } from '../../generated/operations.js';
import type { RequestContext } from '../services.js';

export const regionHandlers: Pick<Handlers<RequestContext>, 'listRegions'> = {
  listRegions(_request, ctx) {
    return { status: 200, body: ctx.services.regions.list() };
  },
};
