// One simulated user of the soak, going round the documented flow until the soak's traffic ends:
// sign in, create a plan, subscribe on one instance (a live subscriber and one that will leave and
// resume with x-since), start on another, add a late `x-replay: all` subscriber on a third, follow
// the run to its end; then edit one day twice at the same moment through two instances (an HTTP swap
// and a chat "replace" of disjoint stops) and check both edits are in the saved day; sometimes
// delete the plan. Everything the user was told goes into the ledger.
import type { components } from '../../generated/openapi.js';
import type { SoakHttp } from './soakHttp.js';
import type { SoakLedger, SoakPlan } from './soakLedger.js';
import { startStreamWatcher, type StreamWatcher } from './streamWatcher.js';

type DailyPlan = components['schemas']['DailyPlanResponse'];
type ChannelIds = components['schemas']['ChannelIdResponse'];
type ScheduleMessage = { type: string; dailyPlan?: DailyPlan | null; message?: string | null };

export interface SoakUserContext {
  http: SoakHttp;
  ledger: SoakLedger;
  /** the base URL of a running instance, different from those in `avoid` when it can be */
  pick(avoid?: string[]): string;
  trafficEndsAt: number;
  random(): number;
}

const REGIONS = ['Busan', 'Seoul', 'Jeju', 'Gyeongju', 'Jeonju', 'Gangneung'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function data<T>(body: unknown): T {
  return (body as { data: T }).data;
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

async function signIn(ctx: SoakUserContext, email: string): Promise<string | null> {
  const answer = await ctx.http.call(() => ctx.pick(), 'POST', '/api/v1/auth/dev-login', undefined, { email });
  return answer?.status === 200 ? data<{ accessToken: string }>(answer.body).accessToken : null;
}

export async function runSoakUser(ctx: SoakUserContext, index: number): Promise<void> {
  const token = await signIn(ctx, `soak-user-${index}@example.com`);
  if (!token) return;
  while (Date.now() < ctx.trafficEndsAt) {
    await oneCycle(ctx, () => token).catch(() => undefined);
    await sleep(200 + ctx.random() * 1_300);
  }
}

async function oneCycle(ctx: SoakUserContext, token: () => string): Promise<void> {
  const { http, ledger } = ctx;
  const duration = 2 + Math.floor(ctx.random() * 2);
  const created = await http.call(() => ctx.pick(), 'POST', '/api/v1/trips', token(), {
    themes: ['FAMOUS_SPOT', 'RESTAURANT'],
    startDate: '2027-03-01',
    duration,
    region: REGIONS[Math.floor(ctx.random() * REGIONS.length)],
    peopleCount: 2,
  });
  if (created?.status !== 201) return;
  const ids = data<ChannelIds>(created.body);
  ledger.outcome.acknowledged.creates++;
  const plan: SoakPlan = { ...ids, token, duration, started: false, deleted: false, watchers: [] };
  ledger.plans.push(plan);

  const subscribeOn = ctx.pick();
  const watch = (kind: StreamWatcher['kind'], initial: 'plain' | 'all', first: string) => {
    let next: string | null = first;
    return startStreamWatcher({
      kind,
      initial,
      token,
      tripPlanId: plan.tripPlanId,
      chatRoomId: plan.chatRoomId,
      deadlineMs: 90_000,
      nextBaseUrl: () => {
        const url = next ?? ctx.pick();
        next = null;
        return url;
      },
    });
  };
  try {
    plan.watchers.push(await watch('live', 'plain', subscribeOn));
    plan.watchers.push(await watch('resumed', 'plain', subscribeOn));
  } catch {
    // Could not subscribe (the instance went down meanwhile): the plan stays, never started.
    await Promise.all(plan.watchers.map((w) => w.close()));
    plan.watchers = [];
    return;
  }
  const [live, resumed] = plan.watchers as [StreamWatcher, StreamWatcher];
  const start = await http.call(() => ctx.pick([subscribeOn]), 'POST', `/api/v1/trips/${plan.tripPlanId}`, token(), undefined, { once: true });
  if (start?.status === 200) {
    plan.started = true;
    ledger.outcome.acknowledged.starts++;
  } else {
    // Not acknowledged (a lost answer may still have started it): its subscribers prove nothing.
    await Promise.all(plan.watchers.map((w) => w.close()));
    plan.watchers = [];
    return;
  }
  await until(() => live.logs.plan.length > 0, 1_500);
  try {
    plan.watchers.push(await watch('late replay', 'all', ctx.pick([subscribeOn])));
  } catch {
    // no third subscriber this time
  }
  const leaveAfter = 1 + Math.floor(ctx.random() * 4);
  void until(() => resumed.logs.plan.length + resumed.logs.chat.length >= leaveAfter, 60_000).then((reached) =>
    reached && !resumed.finished() ? resumed.leaveAndResume() : undefined,
  );
  await Promise.race([Promise.all(plan.watchers.map((w) => w.done)), sleep(90_000)]);

  const completed = live.logs.chat.some((m) => (m.payload as { messageStreamType?: string }).messageStreamType === 'COMPLETED');
  if (completed) await editConcurrently(ctx, plan, live);
  for (const watcher of plan.watchers) await watcher.close();
  if (ctx.random() < 0.3) await deletePlan(ctx, plan);
}

/** An HTTP swap of stops 1 and 3 and a chat "replace stop 2" of day 1, at once, through two instances. */
async function editConcurrently(ctx: SoakUserContext, plan: SoakPlan, live: StreamWatcher): Promise<void> {
  const { http, ledger } = ctx;
  const before = await http.call(() => ctx.pick(), 'GET', `/api/v1/trips/daily-plans/${plan.tripPlanId}`, plan.token());
  if (before?.status !== 200) return;
  const day = data<DailyPlan[]>(before.body).find((d) => d.dayNumber === 1);
  const placeAt = (d: DailyPlan | undefined, visitOrder: number) => d?.scheduledPlaces.find((s) => s.visitOrder === visitOrder)?.place.id;
  if (!day || day.scheduledPlaces.length < 3) return;
  const [p1, p2, p3] = [placeAt(day, 1), placeAt(day, 2), placeAt(day, 3)];
  const scheduleSeen = live.logs.plan.length;
  const swapOn = ctx.pick();
  const [swap, sent] = await Promise.all([
    http.call(
      () => swapOn,
      'PATCH',
      `/api/v1/trips/${plan.tripPlanId}/daily-plans/1/scheduled-places`,
      plan.token(),
      { chatRoomId: plan.chatRoomId, visitOrderA: 1, visitOrderB: 3 },
      { deadlineMs: 20_000, once: true },
    ),
    live.sendChat(plan.chatRoomId, 'replace stop 2 on day 1').then(
      () => true,
      () => false,
    ),
  ]);
  const swapped = swap?.status === 204;
  if (swapped) ledger.outcome.acknowledged.swaps++;
  else if (swap && swap.status >= 400 && swap.status < 500) ledger.outcome.refusedEdits++;
  // The chat edit is acknowledged by its announcement: schedule UPDATED "Replaced stop 2 …" with the day as saved.
  const replacedMessage = () =>
    live.logs.plan
      .slice(scheduleSeen)
      .map((m) => m.payload as ScheduleMessage)
      .find((p) => p.type === 'UPDATED' && p.message?.startsWith('Replaced stop 2'));
  const announced = sent && (await until(() => replacedMessage() !== undefined, 20_000)) ? replacedMessage() : undefined;
  const replacement = placeAt(announced?.dailyPlan ?? undefined, 2);
  if (announced && replacement !== undefined) ledger.outcome.acknowledged.chatEdits++;
  else if (sent) ledger.outcome.refusedEdits++;

  const after = await http.call(() => ctx.pick([swapOn]), 'GET', `/api/v1/trips/daily-plans/${plan.tripPlanId}`, plan.token());
  if (after?.status !== 200) return ledger.missing(`plan ${plan.tripPlanId}: the day could not be read back after the edits`);
  const saved = data<DailyPlan[]>(after.body).find((d) => d.dayNumber === 1);
  if (swapped && (placeAt(saved, 1) !== p3 || placeAt(saved, 3) !== p1)) {
    ledger.missing(
      `plan ${plan.tripPlanId}: swap of stops 1 and 3 answered 204 but day 1 holds ${placeAt(saved, 1)},${placeAt(saved, 3)} (expected ${p3},${p1})`,
    );
  }
  if (replacement !== undefined && placeAt(saved, 2) !== replacement) {
    ledger.missing(`plan ${plan.tripPlanId}: chat replaced stop 2 (${p2}) with ${replacement}, but day 1 holds ${placeAt(saved, 2)}`);
  }
}

async function deletePlan(ctx: SoakUserContext, plan: SoakPlan): Promise<void> {
  const answer = await ctx.http.call(() => ctx.pick(), 'DELETE', `/api/v1/trips/${plan.tripPlanId}`, plan.token(), undefined, { once: true });
  if (!answer) plan.deleted = 'unknown';
  if (answer?.status !== 204) return;
  plan.deleted = true;
  ctx.ledger.outcome.acknowledged.deletes++;
}
