// Phase "auth": every secured operation without a token and with a garbage token must answer 401;
// with another member's resource id it must answer 404 — no 2xx, no 403 (that would leak that the
// resource exists), no 5xx.
import { PhaseRecorder } from '../checks.js';
import { curlOf } from '../httpProbe.js';
import { exampleRequest, pathFor, sendChecked, type RunContext } from '../runContext.js';

export async function runAuthPhase(ctx: RunContext): Promise<PhaseRecorder> {
  const recorder = new PhaseRecorder('auth');
  for (const op of ctx.spec.operations.filter((o) => o.secured)) {
    for (const [label, token] of [
      ['no token', null],
      ['a garbage token', 'garbage.not-a.jwt'],
    ] as const) {
      const request = { ...exampleRequest(op, ctx.a), token };
      const response = await sendChecked(ctx, recorder, request);
      recorder.check(response.status === 401, 'auth_required', op.operationId, `${label}: expected 401, got ${response.status}`, curlOf(ctx.target, request));
    }
    const scoped = op.parameters.some((p) => p.name === 'tripPlanId' || p.name === 'chatRoomId');
    if (!scoped) continue;
    // Member A asks for member B's plan or room.
    const base = exampleRequest(op, ctx.a);
    const body = base.body && typeof base.body === 'object' && 'chatRoomId' in base.body ? { ...base.body, chatRoomId: ctx.b.chatRoomId } : base.body;
    const request = { ...base, path: pathFor(op, ctx.b), body };
    const response = await sendChecked(ctx, recorder, request);
    recorder.check(
      response.status === 404,
      'no_existence_leak',
      op.operationId,
      `another member's resource: expected 404, got ${response.status}`,
      curlOf(ctx.target, request),
    );
  }
  return recorder;
}
