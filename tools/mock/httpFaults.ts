// The faults an HTTP request may ask the mock for with `x-mock-fault` (faultHeader.ts).
// `status=429` or `status=503` answers the operation's documented 429 or 503, as `Prefer: code=`
// would, with `Retry-After: <retry-after, default 1>`, before the request is checked, as a busy
// server does; with `id` (and `times`, default 1) only the first requests of that id, then the
// usual answer, so a client's retries can be tested. `new-epoch-after=k` on
// startTripPlanGeneration: the run it starts begins a new epoch after its k-th message
// (mockGeneration.ts).
import type { OperationFact } from '../../conformance/specModel/index.js';
import { FAULT_HEADER, readFaultHeader } from './faultHeader.js';
import type { FaultUses } from './faultUses.js';

export type HttpFault = { problem: string } | { status: 429 | 503; retryAfter: number } | { newEpochAfter?: number };

const START = 'startTripPlanGeneration';

/** What the request's header asks of this answer: a problem with it, a refusal, or what the answered request starts with. */
export function httpFaultOf(header: string | undefined, operation: OperationFact, uses: FaultUses): HttpFault {
  const asked = readFaultHeader(header, 'HTTP');
  if (asked === null) return {};
  if ('problem' in asked) return asked;
  const { status, newEpochAfter } = asked;
  if (status !== undefined && !operation.responses.some((r) => r.status === status))
    return { problem: `${FAULT_HEADER}: ${operation.operationId} documents no ${status} response.` };
  if (newEpochAfter !== undefined && operation.operationId !== START)
    return { problem: `${FAULT_HEADER}: new-epoch-after is for ${START}, which starts a run; not for ${operation.operationId}.` };
  if (!uses.take(asked.id, asked.times)) return {};
  if (status !== undefined) return { status, retryAfter: asked.retryAfter ?? 1 };
  return newEpochAfter === undefined ? {} : { newEpochAfter };
}
