// Bugs in what an operation answers and what it does: an undocumented status, a write acknowledged
// but not made, a deleted plan still served, a lookup that fails as a 500.
import type { ProxyResponse } from '../mutation.js';
import type { MutationOperator } from '../operator.js';
import { errorAnswer, errorCodeOf, headerValue, isRequest, pathOf, rewriteResponses, withJson, withStatus } from './httpRewrites.js';

const plan = /^\/api\/v1\/trips\/\d+$/;
const swap = /^\/api\/v1\/trips\/\d+\/daily-plans\/\d+\/scheduled-places$/;
const noContent = (): ProxyResponse => ({ status: 204, headers: { 'x-request-id': 'mutated-answer' }, body: Buffer.alloc(0) });

export const statusOperators: MutationOperator[] = [
  {
    id: 'start-answers-202',
    description: 'starting a generation answers 202 Accepted instead of the documented 200',
    quote: {
      file: 'openapi.yaml',
      pointer: '/paths/~1api~1v1~1trips~1{tripPlanId}/post/responses/200/description',
      text: 'The generation was queued; progress arrives over STOMP.',
    },
    phases: ['examples'],
    meantFor: 'status_documented',
    mutation: rewriteResponses(
      (request, response) => isRequest(request, 'POST', plan) && response.status === 200,
      (response) => withStatus(response, 202),
    ),
  },
  {
    id: 'delete-answers-200',
    description: 'deleting a trip plan answers 200 with a message body instead of 204 without one',
    quote: { file: 'openapi.yaml', pointer: '/tags/5/description', text: '`204` responses have no body.' },
    phases: ['examples'],
    meantFor: 'status_documented',
    mutation: rewriteResponses(
      (request, response) => isRequest(request, 'DELETE', plan) && response.status === 204,
      (response) => withJson({ ...response, status: 200 }, { success: true, status: 200, data: { message: 'Trip plan deleted.' } }),
    ),
  },
  {
    id: 'deleted-plan-still-readable',
    description: 'a deleted trip plan is still answered from a cache (200) instead of 404',
    quote: { file: 'openapi.yaml', pointer: '/paths/~1api~1v1~1trips~1{tripPlanId}/delete/description', text: 'Every later call with this id answers `404`.' },
    phases: ['stateful'],
    meantFor: 'use_after_free',
    mutation() {
      const cached = new Map<string, ProxyResponse>();
      const deleted = new Set<string>();
      return {
        request: (request) => (isRequest(request, 'GET', plan) && deleted.has(pathOf(request)) ? cached.get(pathOf(request)) : undefined),
        response(response, request) {
          if (isRequest(request, 'GET', plan) && response.status === 200) cached.set(pathOf(request), response);
          if (isRequest(request, 'DELETE', plan) && response.status === 204) deleted.add(pathOf(request));
          return undefined;
        },
      };
    },
  },
  {
    id: 'rename-not-saved',
    description: 'renaming a trip plan answers 204 but keeps the old title',
    quote: {
      file: 'openapi.yaml',
      pointer: '/paths/~1api~1v1~1trips~1{tripPlanId}/patch/description',
      text: 'Changes the title (1 to 100 characters, not blank).',
    },
    phases: ['stateful'],
    meantFor: 'stateful_flow',
    mutation: () => ({ request: (request) => (isRequest(request, 'PATCH', plan) ? noContent() : undefined) }),
  },
  {
    id: 'swap-acknowledged-not-applied',
    description: 'every second swap of two stops answers 204 without swapping them',
    quote: {
      file: 'openapi.yaml',
      pointer: '/paths/~1api~1v1~1trips~1{tripPlanId}~1daily-plans~1{dayNumber}~1scheduled-places/patch/description',
      text: 'a `204` means this swap is in the saved day',
    },
    phases: ['delivery'],
    meantFor: 'concurrent_writes',
    mutation() {
      let swaps = 0;
      return { request: (request) => (isRequest(request, 'PATCH', swap) && ++swaps % 2 === 0 ? noContent() : undefined) };
    },
  },
  {
    id: 'not-found-as-500',
    description: 'a trip plan that is missing or not the caller’s makes the lookup throw: 500 COMMON500 instead of 404 TRIP101',
    quote: {
      file: 'openapi.yaml',
      pointer: '/components/responses/TripPlanNotFound/description',
      text: '`TRIP101`: the trip plan does not exist or belongs to another member.',
    },
    phases: ['auth'],
    meantFor: 'not_5xx',
    mutation: rewriteResponses(
      (_request, response) => response.status === 404 && errorCodeOf(response) === 'TRIP101',
      (_response, request) => errorAnswer(request, 500, 'COMMON500', 'An unexpected error occurred.'),
    ),
  },
  {
    id: 'regions-require-token',
    description: 'the public list of regions demands a token: 401 without one',
    quote: { file: 'openapi.yaml', pointer: '/paths/~1api~1v1~1regions/get/description', text: 'Public (no token), as the list is the same for everyone' },
    phases: ['examples'],
    meantFor: 'status_documented',
    mutation: () => ({
      request: (request) =>
        isRequest(request, 'GET', /^\/api\/v1\/regions$/) && headerValue(request, 'authorization') === undefined
          ? errorAnswer(request, 401, 'AUTH011', 'The Authorization header is missing.')
          : undefined,
    }),
  },
];
