// Bugs in the envelope around every JSON response (`{success, status, data}`): a `status` that is
// not the HTTP status, an error that says it succeeded.
import type { MutationOperator } from '../operator.js';
import { isRequest, jsonObjectOf, rewriteResponses, withJson } from './httpRewrites.js';

const isError = (status: number) => status >= 400;

export const envelopeOperators: MutationOperator[] = [
  {
    id: 'created-envelope-says-200',
    description: 'creating a trip plan answers HTTP 201 with an envelope whose status is 200',
    quote: { file: 'openapi.yaml', pointer: '/tags/5/description', text: '`status` repeats the HTTP status' },
    phases: ['examples'],
    meantFor: 'envelope_status',
    mutation: rewriteResponses(
      (request, response) => isRequest(request, 'POST', /^\/api\/v1\/trips$/) && response.status === 201,
      (response) => withJson(response, { ...jsonObjectOf(response), status: 200 }),
    ),
  },
  {
    id: 'error-envelope-says-400',
    description: 'every error envelope says status 400, whatever the HTTP status (a 401, a 404)',
    quote: { file: 'openapi.yaml', pointer: '/components/schemas/CommonResponse/description', text: 'with `status` repeating the HTTP status' },
    phases: ['auth'],
    meantFor: 'envelope_status',
    mutation: rewriteResponses(
      (_request, response) => isError(response.status) && response.status !== 400 && jsonObjectOf(response)?.status !== undefined,
      (response) => withJson(response, { ...jsonObjectOf(response), status: 400 }),
    ),
  },
  {
    id: 'error-envelope-says-success',
    description: 'error envelopes say success: true',
    quote: { file: 'openapi.yaml', pointer: '/components/schemas/ErrorEnvelope/properties/success/const', text: 'const: false' },
    phases: ['auth'],
    meantFor: 'body_valid',
    mutation: rewriteResponses(
      (_request, response) => isError(response.status) && jsonObjectOf(response)?.success === false,
      (response) => withJson(response, { ...jsonObjectOf(response), success: true }),
    ),
  },
];
