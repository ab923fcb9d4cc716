// Bugs in response headers: a rate-limit header out of its range or in the wrong unit, a 429
// without (or with an unreadable) Retry-After, a request id that is missing or not the caller's,
// a Location that leads elsewhere, an error body in the wrong media type.
import { randomUUID } from 'node:crypto';
import type { Mutation } from '../mutation.js';
import type { MutationOperator } from '../operator.js';
import { errorAnswer, headerValue, isRequest, pathOf, rewriteResponses, withHeaders } from './httpRewrites.js';

/** Every fifth GET of the API is answered 429 by a rate limiter in front of it, with `retryAfter` as its Retry-After. */
function rateLimited(retryAfter: () => string | undefined): () => Mutation {
  return () => {
    let gets = 0;
    return {
      request(request) {
        if (request.method !== 'GET' || !pathOf(request).startsWith('/api/v1/') || ++gets % 5 !== 0) return undefined;
        return withHeaders(errorAnswer(request, 429, 'COMMON429', 'Too many requests.'), { 'retry-after': retryAfter() });
      },
    };
  };
}

export const headerOperators: MutationOperator[] = [
  {
    id: 'rate-limit-remaining-negative',
    description: 'RateLimit-Remaining is computed the wrong way round (requests made − limit): negative',
    quote: { file: 'openapi.yaml', pointer: '/components/headers/RateLimit-Remaining/schema/minimum', text: 'minimum: 0' },
    phases: ['examples'],
    meantFor: 'header_valid',
    mutation: rewriteResponses(
      (_request, response) => headerValue(response, 'ratelimit-remaining') !== undefined,
      (response) => withHeaders(response, { 'ratelimit-remaining': String(-Number(headerValue(response, 'ratelimit-remaining'))) }),
    ),
  },
  {
    id: 'rate-limit-reset-in-milliseconds',
    description: 'RateLimit-Reset is sent in milliseconds instead of seconds',
    quote: { file: 'openapi.yaml', pointer: '/components/headers/RateLimit-Reset/description', text: 'Seconds until the current window ends.' },
    phases: ['examples'],
    meantFor: 'header_valid',
    mutation: rewriteResponses(
      (_request, response) => headerValue(response, 'ratelimit-reset') !== undefined,
      (response) => withHeaders(response, { 'ratelimit-reset': String(Number(headerValue(response, 'ratelimit-reset')) * 1000) }),
    ),
  },
  {
    id: 'rate-limited-without-retry-after',
    description: 'the rate limiter answers 429 COMMON429 without Retry-After',
    quote: { file: 'openapi.yaml', pointer: '/tags/5/description', text: 'Requests may be rate limited: `429 COMMON429` with `Retry-After` (seconds).' },
    phases: ['examples'],
    meantFor: 'required_headers',
    mutation: rateLimited(() => undefined),
  },
  {
    id: 'retry-after-as-http-date',
    description: 'the rate limiter’s Retry-After is an HTTP date instead of seconds',
    quote: { file: 'openapi.yaml', pointer: '/components/headers/RetryAfter/description', text: 'Seconds to wait before the next request.' },
    phases: ['examples'],
    meantFor: 'header_valid',
    mutation: rateLimited(() => new Date(Date.now() + 1000).toUTCString()),
  },
  {
    id: 'request-id-not-echoed',
    description: 'a request’s own X-Request-Id is replaced by a generated one in the response',
    quote: { file: 'openapi.yaml', pointer: '/components/parameters/RequestId/description', text: 'The response echoes it in `X-Request-Id`' },
    phases: ['conventions'],
    meantFor: 'request_id',
    mutation: rewriteResponses(
      (request) => headerValue(request, 'x-request-id') !== undefined,
      (response) => withHeaders(response, { 'x-request-id': randomUUID() }),
    ),
  },
  {
    id: 'request-id-missing-on-errors',
    description: 'error responses leave out X-Request-Id (the error handler builds a response of its own)',
    quote: { file: 'openapi.yaml', pointer: '/components/headers/X-Request-Id/description', text: 'The id of this request, on every response' },
    phases: ['auth'],
    meantFor: 'required_headers',
    mutation: rewriteResponses(
      (_request, response) => response.status >= 400 && headerValue(response, 'x-request-id') !== undefined,
      (response) => withHeaders(response, { 'x-request-id': undefined }),
    ),
  },
  {
    id: 'location-of-the-days',
    description: 'the Location of a created trip plan is the path of its days, not of the plan',
    quote: { file: 'openapi.yaml', pointer: '/components/headers/Location/description', text: 'URL path of the created resource.' },
    phases: ['stateful'],
    meantFor: 'stateful_flow',
    mutation: rewriteResponses(
      (request, response) => isRequest(request, 'POST', /^\/api\/v1\/trips$/) && response.status === 201 && headerValue(response, 'location') !== undefined,
      (response) => withHeaders(response, { location: headerValue(response, 'location')!.replace('/api/v1/trips/', '/api/v1/trips/daily-plans/') }),
    ),
  },
  {
    id: 'not-found-as-plain-text',
    description: 'a 404 is answered as text/plain "Not Found" instead of the JSON error envelope',
    quote: { file: 'openapi.yaml', pointer: '/components/schemas/ErrorEnvelope/description', text: 'The `CommonResponse` of every error (4xx, 5xx).' },
    phases: ['auth'],
    meantFor: 'content_type',
    mutation: rewriteResponses(
      (_request, response) => response.status === 404,
      (response) => ({ ...withHeaders(response, { 'content-type': 'text/plain; charset=utf-8' }), body: Buffer.from('Not Found') }),
    ),
  },
];
