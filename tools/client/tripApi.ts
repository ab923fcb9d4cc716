// The HTTP calls of the documented generation flow (openapi.yaml info.description), typed with the
// generated schema types and unwrapped from the {success, status, data} envelope.
import type http from 'node:http';
import type { components } from '../../generated/openapi.js';
import { jsonAt } from '../../conformance/specModel/index.js';
import { requestJson } from './httpJson.js';

type Schemas = components['schemas'];
export type TripPlanCreateRequest = Schemas['TripPlanCreateRequest'];
export type ChannelIds = Schemas['ChannelIdResponse'];
export type DailyPlan = Schemas['DailyPlanResponse'];
export type TripPlanDetail = Schemas['TripPlanDetailResponse'];

/** An answer other than the documented success, with the service's error code when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly operation: string,
    readonly status: number,
    readonly code: string | null,
    detail: string,
  ) {
    super(`${operation} answered ${status}${code ? ` ${code}` : ''}: ${detail}`);
  }
}

export interface TripApi {
  devLogin(email: string): Promise<string>;
  createTrip(token: string, request: TripPlanCreateRequest): Promise<ChannelIds>;
  startGeneration(token: string, tripPlanId: number): Promise<void>;
  listDailyPlans(token: string, tripPlanId: number): Promise<DailyPlan[]>;
  getTripPlan(token: string, tripPlanId: number): Promise<TripPlanDetail>;
}

export function createTripApi(baseUrl: string, agent?: http.Agent): TripApi {
  const base = baseUrl.replace(/\/+$/, '');
  async function call<T>(operation: string, expected: number, method: string, path: string, token?: string, body?: unknown): Promise<T> {
    const res = await requestJson(`${base}${path}`, { method, ...(token && { token }), ...(body !== undefined && { body }), ...(agent && { agent }) });
    if (res.status !== expected) {
      const message = jsonAt(res.body, 'data', 'message');
      const code = jsonAt(res.body, 'data', 'code');
      const detail = typeof message === 'string' ? message : typeof res.body === 'string' ? res.body.slice(0, 300) : JSON.stringify(res.body).slice(0, 300);
      throw new ApiError(operation, res.status, typeof code === 'string' ? code : null, detail);
    }
    // The documented answer of the operation for its expected status (the server's response check holds it to that).
    return jsonAt(res.body, 'data') as T;
  }
  return {
    devLogin: async (email) => (await call<Schemas['TokenResponse']>('devLogin', 200, 'POST', '/api/v1/auth/dev-login', undefined, { email })).accessToken,
    createTrip: (token, request) => call('createTripPlanSession', 201, 'POST', '/api/v1/trips', token, request),
    startGeneration: async (token, tripPlanId) => void (await call('startTripPlanGeneration', 200, 'POST', `/api/v1/trips/${tripPlanId}`, token)),
    listDailyPlans: (token, tripPlanId) => call('listDailyPlans', 200, 'GET', `/api/v1/trips/daily-plans/${tripPlanId}`, token),
    getTripPlan: (token, tripPlanId) => call('getTripPlan', 200, 'GET', `/api/v1/trips/${tripPlanId}`, token),
  };
}
