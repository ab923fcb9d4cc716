// Phase "delivery": the delivery guarantees of asyncapi.yaml against a whole deployment. For a fresh
// plan, a live follower on every instance and one that leaves after a few messages and resumes with
// `x-since` on another instance watch a generation started on the last instance; the fault hooks
// (--fault-hook) run at their points; after the run a late `x-replay: all` subscriber reads the
// history. The judge (delivery/continuity.ts) then holds every follower to the guarantees, and
// concurrent swaps through two instances must all be visible afterwards or refused. The steps are
// in delivery/, one a file.
import { fillTemplate, jsonAt } from '../../specModel/index.js';
import { PhaseRecorder } from '../checks.js';
import { runFaultHook, type FaultHook } from '../faultHooks.js';
import { send } from '../httpProbe.js';
import { createTripPlan, instancesOf, type Instance, type RunContext } from '../runContext.js';
import { checkConcurrentEdits } from './delivery/concurrentEdits.js';
import { judgeConsistency, judgeFollower, newestEpochOf, referenceOf, type DeliveryCheck } from './delivery/continuity.js';
import { startFollower, type Follower, type FollowerSetup } from './delivery/follower.js';
import { deliveryFactsOf, endsRun, planLogsOf, type PlanLog } from './delivery/planLogs.js';

/** Messages the resuming follower takes before it leaves. */
const LEAVE_AFTER = 3;
const POLL_MS = 50;

interface Watch {
  ctx: RunContext;
  recorder: PhaseRecorder;
  instances: Instance[];
  plan: { tripPlanId: number; chatRoomId: number };
  hooks: FaultHook[];
  /** the hooks that ran */
  ran: Set<FaultHook>;
}

const dayNumbersSeen = (followers: Follower[]) =>
  new Set(
    followers.flatMap((f) =>
      f.segments.flatMap((s) =>
        s.messages.filter((m) => jsonAt(m.body, 'type') === 'DAILY_PLAN_GENERATED').map((m) => Number(jsonAt(m.body, 'dailyPlan', 'dayNumber'))),
      ),
    ),
  );

async function runHook(watch: Watch, hook: FaultHook): Promise<void> {
  watch.ran.add(hook);
  const env = {
    TRIP_CONFORMANCE_POINT: hook.point,
    TRIP_CONFORMANCE_TRIP_PLAN_ID: String(watch.plan.tripPlanId),
    TRIP_CONFORMANCE_INSTANCES: watch.instances.map((i) => i.baseUrl).join(','),
  };
  const outcome = await runFaultHook(hook, env, watch.ctx.options.generationTimeoutMs);
  watch.recorder.check(outcome.ok, 'fault_hook', hook.point, `the hook ${outcome.detail}`, hook.command);
}

/**
 * Until every follower saw the run end (or the deadline): the resuming follower leaves after a few
 * messages and comes back elsewhere, and each day hook runs once its day came (checked before the
 * run end, so a fast run still runs its hooks and its resumption).
 */
async function watchRun(watch: Watch, followers: Follower[], resumer: Follower, logs: PlanLog[], deadlineAt: number): Promise<void> {
  let resumed = false;
  for (;;) {
    if (!resumed && logs.reduce((sum, log) => sum + resumer.countOf(log.name), 0) >= LEAVE_AFTER) {
      resumed = true;
      await resumer.leave();
      await resumer.rejoin(1 % watch.instances.length);
    }
    const days = dayNumbersSeen(followers);
    for (const hook of watch.hooks.filter((h) => !watch.ran.has(h) && h.point.startsWith('after-day-'))) {
      if (days.has(Number(hook.point.slice('after-day-'.length)))) await runHook(watch, hook);
    }
    if (Date.now() >= deadlineAt || (resumed && followers.every((f) => f.sawRunEnd()))) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** What the followers went through, so a report shows whether the faults reached them. */
function experienced(followers: Follower[]): string {
  const segments = followers.flatMap((f) => f.segments);
  const receipts = segments.flatMap((s) => s.subscriptions).filter((s) => s.asked.kind !== 'live');
  const count = (recovered: string) => receipts.filter((s) => s.recovered === recovered).length;
  return (
    `${followers.length} subscribers, ${segments.length} connections, ${segments.filter((s) => s.ended.kind === 'lost').length} lost; ` +
    `replaying SUBSCRIBEs: ${count('true')} x-recovered: true, ${count('false')} x-recovered: false, ${receipts.length - count('true') - count('false')} without a RECEIPT`
  );
}

/** The instances that answer getReadiness now (after a hook killed one, the rest). */
async function answering(ctx: RunContext, instances: Instance[]): Promise<Instance[]> {
  const readiness = ctx.spec.operation('getReadiness');
  const alive = await Promise.all(
    instances.map((instance) =>
      send({ ...ctx.target, baseUrl: instance.baseUrl }, { operationId: readiness.operationId, method: 'GET', path: readiness.path }).then(
        (res) => res.status === 200,
        () => false,
      ),
    ),
  );
  return instances.filter((_, i) => alive[i]);
}

/** Records the judge's verdict: one check per follower, log and guarantee, failed with each problem. */
function recordVerdicts(watch: Watch, followers: Follower[], logs: PlanLog[], faults: boolean): void {
  const how = `STOMP ${watch.instances.map((i) => i.wsUrl).join(' + ')}: followers of plan ${watch.plan.tripPlanId} (seed ${watch.ctx.options.seed}); rerun with --phases delivery`;
  const checks: DeliveryCheck[] = ['delivery_once', 'delivery_gap', 'delivery_recovered'];
  for (const log of logs) {
    const reference = referenceOf(followers, log, newestEpochOf(followers[followers.length - 1]!, log) ?? newestEpochOf(followers[0]!, log));
    for (const follower of followers) {
      const problems = judgeFollower(follower, log, reference, faults);
      for (const check of checks) {
        const mine = problems.filter((p) => p.check === check);
        if (mine.length === 0) watch.recorder.check(true, check, `${follower.name} ${log.name} log`, '', how);
        for (const problem of mine) watch.recorder.check(false, check, problem.target, problem.message, how);
      }
      watch.recorder.report.messages += follower.countOf(log.name);
    }
    const inconsistent = judgeConsistency(followers, log);
    if (inconsistent.length === 0) watch.recorder.check(true, 'delivery_consistent', `${log.name} log`, '', how);
    for (const problem of inconsistent) watch.recorder.check(false, 'delivery_consistent', problem.target, problem.message, how);
  }
}

export async function runDeliveryPhase(ctx: RunContext): Promise<PhaseRecorder> {
  const recorder = new PhaseRecorder('delivery');
  const instances = instancesOf(ctx.options);
  const hooks = ctx.options.faultHooks ?? [];
  const plan = await createTripPlan(ctx, ctx.a.token);
  const watch: Watch = { ctx, recorder, instances, plan, hooks, ran: new Set() };
  const logs = planLogsOf(ctx.spec, plan);
  const setup = (name: string, first: FollowerSetup['first']): FollowerSetup => ({
    name,
    token: ctx.a.token,
    logs,
    instances,
    options: ctx.options,
    first,
    endsRun: (m) => endsRun(ctx.spec, m),
    lossErrorCode: deliveryFactsOf(ctx.spec).continuity.errorCode,
  });
  const followers = await Promise.all(instances.map((_, i) => startFollower(setup(`live follower on instance ${i + 1}`, 'live'), i)));
  const resumer = await startFollower(setup(`follower resuming on instance ${(1 % instances.length) + 1}`, 'live'), 0);
  followers.push(resumer);
  try {
    const start = ctx.spec.operation('startTripPlanGeneration');
    const last = { ...ctx.target, baseUrl: instances[instances.length - 1]!.baseUrl };
    const started = await send(last, {
      operationId: start.operationId,
      method: 'POST',
      path: fillTemplate(start.path, plan),
      token: ctx.a.token,
    });
    recorder.report.requests++;
    recorder.check(started.status === 200, 'delivery_gap', 'startTripPlanGeneration', `start answered ${started.status}`, `POST ${last.baseUrl}${start.path}`);
    const deadlineAt = Date.now() + ctx.options.generationTimeoutMs;
    await watchRun(watch, followers, resumer, logs, deadlineAt);
    const ended = followers.filter((f) => f.sawRunEnd()).length;
    recorder.check(
      ended > 0,
      'delivery_gap',
      'generation',
      `no follower saw the run end within ${ctx.options.generationTimeoutMs} ms`,
      `STOMP: plan ${plan.tripPlanId}`,
    );
    for (const hook of hooks.filter((h) => !watch.ran.has(h))) {
      if (hook.point === 'after-run') await runHook(watch, hook);
      else
        recorder.check(
          false,
          'fault_hook',
          hook.point,
          `the point never came: the followers saw days ${[...dayNumbersSeen(followers)].join(', ') || 'none'}`,
          hook.command,
        );
    }
    const alive = await answering(ctx, instances);
    // The last instance that still answers (a hook may have killed one); the first when none does.
    const lateAt = Math.max(0, instances.indexOf(alive[alive.length - 1]!));
    const late = await startFollower(setup(`late x-replay:all subscriber on instance ${lateAt + 1}`, 'all'), lateAt);
    followers.push(late);
    await Promise.all(followers.map((f) => f.stop()));
    recordVerdicts(watch, followers, logs, watch.ran.size > 0);
    recorder.report.notes = [experienced(followers)];
    if (alive.length > 0) await checkConcurrentEdits(ctx, recorder, alive, plan);
    else recorder.check(false, 'concurrent_writes', 'swapScheduledPlaces', 'no instance answers getReadiness after the run', '');
  } finally {
    await Promise.all(followers.map((f) => f.stop()));
  }
  return recorder;
}
