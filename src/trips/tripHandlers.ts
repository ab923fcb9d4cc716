// Handlers of the Trips operations. Ownership: another member's plan is TRIP101 (404), exactly like
// a missing one.
import type { Handlers } from '../../generated/operations.js';
import type { components } from '../../generated/openapi.js';
import type { PlannerRegions } from '../catalogue/plannerRegions.js';
import { toCursorPage } from '../db/cursorPage.js';
import type { DatabasePort } from '../db/databasePort.js';
import type { EventBus } from '../events/eventBus.js';
import { AppError, invalidField } from '../kernel/appError.js';
import { operationPath } from '../kernel/operationPath.js';
import { principalOf } from '../kernel/principal.js';
import { currentTraceparent } from '../kernel/traceContext.js';
import type { RequestContext } from '../kernel/requestContext.js';
import type { Transportation } from '../itinerary/travel.js';
import type { Publishers } from '../delivery/publishers.js';
import { listDays } from './dailyPlanRepository.js';
import { announceDayEdit } from './dayEditAnnouncement.js';
import { cancelGeneration, startGeneration } from './generationRequests.js';
import { applyDayEdit } from './savedDayEdits.js';
import { toDailyPlanResponse, toTripPlanDetailResponse, toTripPlanResponse } from './tripPlanMappers.js';
import { addDays, defaultTitle } from '../itinerary/tripDates.js';
import {
  deleteTripPlan,
  findOwnTripPlan,
  findOwnListCursor,
  insertTripPlan,
  listOwnTripPlans,
  updateTripPlanTitle,
  type TripSort,
} from './tripPlanRepository.js';

type PlaceThemeType = components['schemas']['PlaceThemeType'];

type TripHandlers = Pick<
  Handlers<RequestContext>,
  | 'listTripPlans'
  | 'createTripPlanSession'
  | 'getTripPlan'
  | 'startTripPlanGeneration'
  | 'cancelTripPlanGeneration'
  | 'updateTripPlanTitle'
  | 'deleteTripPlan'
  | 'listDailyPlans'
  | 'swapScheduledPlaces'
>;

export interface TripHandlerDeps {
  db: DatabasePort;
  clock: () => number;
  events: EventBus;
  /** the regions the configured planner supports (TRIP107) */
  regions: PlannerRegions;
  publishers: Publishers;
}

async function ownPlan(db: DatabasePort, ctx: RequestContext, tripPlanId: number) {
  const plan = await findOwnTripPlan(db, principalOf(ctx).memberId, tripPlanId);
  if (!plan) throw new AppError('TRIP101');
  return plan;
}

export function createTripHandlers(deps: TripHandlerDeps): TripHandlers {
  return {
    listTripPlans: listTripPlansHandler(deps),
    createTripPlanSession: createTripPlanSessionHandler(deps),
    getTripPlan: getTripPlanHandler(deps),
    startTripPlanGeneration: startTripPlanGenerationHandler(deps),
    cancelTripPlanGeneration: cancelTripPlanGenerationHandler(deps),
    updateTripPlanTitle: updateTripPlanTitleHandler(deps),
    deleteTripPlan: deleteTripPlanHandler(deps),
    listDailyPlans: listDailyPlansHandler(deps),
    swapScheduledPlaces: swapScheduledPlacesHandler(deps),
  };
}

export function listTripPlansHandler({ db }: Pick<TripHandlerDeps, 'db'>): TripHandlers['listTripPlans'] {
  return async ({ query }, ctx) => {
    const { memberId } = principalOf(ctx);
    const [field, direction] = query.sort.split(':') as [TripSort['field'], TripSort['direction']];
    let cursor = null;
    if (query.cursor !== undefined) {
      cursor = (await findOwnListCursor(db, memberId, query.cursor)) ?? null;
      if (!cursor) throw invalidField('query.cursor', query.cursor, 'is not the id of one of your trip plans');
    }
    const rows = await listOwnTripPlans(db, memberId, { field, direction }, query.size, cursor);
    return { status: 200, body: toCursorPage(rows, query.size, toTripPlanResponse) };
  };
}

export function createTripPlanSessionHandler({ db, clock, regions }: Pick<TripHandlerDeps, 'db' | 'clock' | 'regions'>): TripHandlers['createTripPlanSession'] {
  return async ({ body }, ctx) => {
    const { memberId } = principalOf(ctx);
    const now = clock();
    const region = body.region.trim();
    if (!regions.accepts(region)) {
      throw new AppError('TRIP107', `The planner does not support the region "${region}"; GET /api/v1/regions lists the supported regions.`);
    }
    const endDate = addDays(body.startDate, body.duration - 1);
    // Past 9999-12-31 the ISO text gets a sign and a five-digit year (`+010000-01`); LocalDate has
    // four digits (openapi.yaml).
    if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(endDate))
      throw invalidField('body.startDate', body.startDate, 'the trip must end by 9999-12-31 (startDate + duration - 1)');
    const plan = await insertTripPlan(db, {
      memberId,
      title: defaultTitle(region, body.duration),
      region,
      startDate: body.startDate,
      endDate,
      duration: body.duration,
      peopleCount: body.peopleCount,
      themes: body.themes,
      transportation: body.transportation,
      generationStatus: 'PENDING',
      createdAt: now,
      updatedAt: now,
    });
    return {
      status: 201,
      body: { chatRoomId: plan.chatRoomId, tripPlanId: plan.id, conversationId: plan.chatRoomId },
      headers: { Location: operationPath('getTripPlan', { tripPlanId: plan.id }) },
    };
  };
}

export function getTripPlanHandler({ db }: Pick<TripHandlerDeps, 'db'>): TripHandlers['getTripPlan'] {
  return async ({ path }, ctx) => {
    const plan = await db.statements.tripPlanDetail.own(principalOf(ctx).memberId, path.tripPlanId);
    if (!plan) throw new AppError('TRIP101');
    return { status: 200, body: toTripPlanDetailResponse(plan) };
  };
}

export function startTripPlanGenerationHandler({
  db,
  clock,
  events,
}: Pick<TripHandlerDeps, 'db' | 'clock' | 'events'>): TripHandlers['startTripPlanGeneration'] {
  return async ({ path }, ctx) => {
    const plan = await ownPlan(db, ctx, path.tripPlanId);
    if (!(await startGeneration(db, plan.id, clock(), currentTraceparent()))) {
      // Read again: a concurrent start (on any instance) may have won since the plan was read.
      const status = (await ownPlan(db, ctx, path.tripPlanId)).generationStatus;
      throw new AppError('TRIP106', `The trip plan cannot be started while it is ${status === 'COMPLETED' ? 'completed' : 'generating'}.`);
    }
    events.publish('tripPlanGenerationRequested', {
      chatRoomId: plan.chatRoomId,
      tripPlanId: plan.id,
      memberId: plan.memberId,
      request: {
        themes: plan.themes as PlaceThemeType[],
        startDate: plan.startDate,
        duration: plan.duration,
        region: plan.region,
        peopleCount: plan.peopleCount,
        transportation: plan.transportation as Transportation,
      },
    });
    return { status: 200, body: { message: 'Trip plan generation started.' } };
  };
}

export function cancelTripPlanGenerationHandler({
  db,
  clock,
  events,
}: Pick<TripHandlerDeps, 'db' | 'clock' | 'events'>): TripHandlers['cancelTripPlanGeneration'] {
  return async ({ path }, ctx) => {
    const plan = await ownPlan(db, ctx, path.tripPlanId);
    const ended = await cancelGeneration(db, plan.id, clock());
    if (!ended) throw new AppError('TRIP106', 'No generation is running for this trip plan.');
    events.publish('tripPlanGenerationCancelRequested', {
      tripPlanId: plan.id,
      memberId: plan.memberId,
      chatRoomId: plan.chatRoomId,
      reason: 'cancel',
      ...ended,
    });
    return { status: 200, body: { message: 'Trip plan generation cancelled.' } };
  };
}

export function updateTripPlanTitleHandler({ db, clock }: Pick<TripHandlerDeps, 'db' | 'clock'>): TripHandlers['updateTripPlanTitle'] {
  return async ({ path, body }, ctx) => {
    const plan = await ownPlan(db, ctx, path.tripPlanId);
    await updateTripPlanTitle(db, plan.id, body.title.trim(), clock());
    return { status: 204 };
  };
}

export function deleteTripPlanHandler({ db, events }: Pick<TripHandlerDeps, 'db' | 'events'>): TripHandlers['deleteTripPlan'] {
  return async ({ path }, ctx) => {
    const plan = await ownPlan(db, ctx, path.tripPlanId);
    if (plan.generationStatus === 'GENERATING') {
      const ended = { run: plan.genRun, attempt: plan.genAttempt };
      events.publish('tripPlanGenerationCancelRequested', {
        tripPlanId: plan.id,
        memberId: plan.memberId,
        chatRoomId: plan.chatRoomId,
        reason: 'delete',
        ...ended,
      });
    }
    await deleteTripPlan(db, plan.id);
    return { status: 204 };
  };
}

export function listDailyPlansHandler({ db }: Pick<TripHandlerDeps, 'db'>): TripHandlers['listDailyPlans'] {
  return async ({ path }, ctx) => {
    const plan = await ownPlan(db, ctx, path.tripPlanId);
    return { status: 200, body: (await listDays(db, plan.id)).map(toDailyPlanResponse) };
  };
}

export function swapScheduledPlacesHandler({
  db,
  clock,
  publishers,
}: Pick<TripHandlerDeps, 'db' | 'clock' | 'publishers'>): TripHandlers['swapScheduledPlaces'] {
  return async ({ path, body }, ctx) => {
    const plan = await ownPlan(db, ctx, path.tripPlanId);
    if (body.chatRoomId !== plan.chatRoomId) throw new AppError('TRIP101', 'Trip plan not found for this chat room.');
    if (body.visitOrderA === body.visitOrderB) throw invalidField('body.visitOrderB', body.visitOrderB, 'must differ from visitOrderA');
    // One transaction holding the plan row: TRIP106 while it is GENERATING (the itinerary belongs
    // to the generator until the run ends), and concurrent edits of the day one after the other
    // (openapi.yaml, swapScheduledPlaces).
    const edit = await applyDayEdit(db, plan.id, { kind: 'swap', dayNumber: path.dayNumber, visitOrderA: body.visitOrderA, visitOrderB: body.visitOrderB });
    announceDayEdit(publishers, clock, plan, edit);
    return { status: 204 };
  };
}
