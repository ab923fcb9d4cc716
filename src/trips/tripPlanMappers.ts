// Rows to the wire types of the spec (generated/openapi.ts).
import type { components } from '../../generated/openapi.js';
import type { PlaceRow } from '../catalogue/placeRepository.js';
import type { DayWithStops, StopWithPlace } from './dailyPlanRepository.js';
import type { TripPlanDetailItem } from './tripPlanDetail.js';
import type { TripPlanListItem } from './tripPlanRepository.js';

type Schemas = components['schemas'];

const iso = (ms: number) => new Date(ms).toISOString();

export function toTripPlanResponse(plan: TripPlanListItem): Schemas['TripPlanResponse'] {
  return {
    id: plan.id,
    memberId: plan.memberId,
    chatRoomId: plan.chatRoomId,
    title: plan.title,
    startDate: plan.startDate,
    isCompleted: plan.generationStatus === 'COMPLETED',
    region: plan.region,
    imageUrl: plan.imageUrl,
  };
}

export function toTripPlanDetailResponse(plan: TripPlanDetailItem): Schemas['TripPlanDetailResponse'] {
  return {
    tripPlanId: plan.id,
    chatRoomId: plan.chatRoomId,
    title: plan.title,
    region: plan.region,
    startDate: plan.startDate,
    endDate: plan.endDate,
    duration: plan.duration,
    peopleCount: plan.peopleCount,
    themes: plan.themes as Schemas['PlaceThemeType'][],
    transportation: plan.transportation as Schemas['Transportation'],
    isCompleted: plan.generationStatus === 'COMPLETED',
    generationStatus: plan.generationStatus as Schemas['GenerationStatus'],
    imageUrl: plan.imageUrl,
    createdAt: iso(plan.createdAt),
  };
}

export function toPlaceResponse(place: PlaceRow): Schemas['PlaceResponse'] {
  return {
    id: place.id,
    name: place.name,
    address: place.address,
    latitude: place.latitude,
    longitude: place.longitude,
    description: place.description,
    imageUrl: place.imageUrl,
    operatingHours: place.operatingHours,
    holidayInfo: place.holidayInfo,
    isMustVisit: place.isMustVisit,
    themes: place.themes as Schemas['PlaceThemeType'][],
  };
}

export function toScheduledPlaceResponse(stop: StopWithPlace): Schemas['ScheduledPlaceResponse'] {
  return {
    id: stop.id,
    visitOrder: stop.visitOrder,
    category: stop.category,
    travelTime: stop.travelTime,
    travelDistance: stop.travelDistance,
    transportation: stop.transportation as Schemas['Transportation'],
    place: toPlaceResponse(stop.place),
  };
}

export function toDailyPlanResponse(day: DayWithStops): Schemas['DailyPlanResponse'] {
  return {
    id: day.id,
    dayNumber: day.dayNumber,
    date: day.date,
    title: day.title,
    description: day.description,
    scheduledPlaces: day.stops.map(toScheduledPlaceResponse),
  };
}
