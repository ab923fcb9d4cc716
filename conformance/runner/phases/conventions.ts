// Phase "conventions": what openapi.yaml's Conventions (the Trips tag) say of every path and every
// request rather than of one operation, so that no other phase sends it: a method a path does not
// have answers 405 with Allow (conventions/methodNotAllowed.ts), and the caller's X-Request-Id is
// echoed, or replaced when invalid (conventions/requestIds.ts). Neither is a hostile input, so
// they are not in the phase "robustness".
import { PhaseRecorder } from '../checks.js';
import type { RunContext } from '../runContext.js';
import { checkMethodsNotAllowed } from './conventions/methodNotAllowed.js';
import { checkRequestIds } from './conventions/requestIds.js';

export async function runConventionsPhase(ctx: RunContext): Promise<PhaseRecorder> {
  const recorder = new PhaseRecorder('conventions');
  await checkMethodsNotAllowed(ctx, recorder);
  await checkRequestIds(ctx, recorder);
  return recorder;
}
