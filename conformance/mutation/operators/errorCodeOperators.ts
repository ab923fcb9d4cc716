// Bugs in the error code of an error body: a code from the list of ErrorCode (so the schema holds),
// but not one the response documents.
import type { MutationOperator } from '../operator.js';
import { errorCodeOf, rewriteResponses, withData } from './httpRewrites.js';

/** An operator whose bug answers `code` where the server meant `was` (same status). */
const recoded = (was: string, code: string) =>
  rewriteResponses(
    (_request, response) => errorCodeOf(response) === was,
    (response) => withData(response, (data) => ({ ...data, code })),
  );

export const errorCodeOperators: MutationOperator[] = [
  {
    id: 'trip-not-found-coded-common404',
    description: 'a trip plan that is missing or not the caller’s answers 404 with the route code COMMON404 instead of TRIP101',
    quote: {
      file: 'openapi.yaml',
      pointer: '/components/responses/TripPlanNotFound/description',
      text: '`TRIP101`: the trip plan does not exist or belongs to another member.',
    },
    phases: ['auth'],
    meantFor: 'error_code',
    mutation: recoded('TRIP101', 'COMMON404'),
  },
  {
    id: 'chat-room-not-found-coded-trip101',
    description: 'a chat room that is not the caller’s answers 404 TRIP101 (the plan’s code) instead of CHAT301',
    quote: {
      file: 'openapi.yaml',
      pointer: '/components/responses/ChatRoomNotFound/description',
      text: '`CHAT301`: the chat room does not exist or belongs to another member.',
    },
    phases: ['auth'],
    meantFor: 'error_code',
    mutation: recoded('CHAT301', 'TRIP101'),
  },
  {
    id: 'validation-error-coded-common500',
    description: 'a request that fails its schema answers 400 with the catch-all code COMMON500 instead of COMMON001',
    quote: { file: 'openapi.yaml', pointer: '/components/responses/BadRequest/description', text: '`COMMON001`: a parameter or body field fails its schema' },
    phases: ['negative'],
    meantFor: 'error_code',
    mutation: recoded('COMMON001', 'COMMON500'),
  },
  {
    id: 'missing-token-coded-member001',
    description: 'a request without a token answers 401 with MEMBER001 (member not found) instead of AUTH011',
    quote: { file: 'openapi.yaml', pointer: '/components/responses/Unauthorized/description', text: '`AUTH011`: no `Authorization` header' },
    phases: ['auth'],
    meantFor: 'error_code',
    mutation: recoded('AUTH011', 'MEMBER001'),
  },
];
