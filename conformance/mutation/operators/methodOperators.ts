// Bugs in the answer to a method a path does not have: it must be 405 COMMON405 with Allow.
import type { MutationOperator } from '../operator.js';
import { errorAnswer, errorCodeOf, rewriteResponses, withHeaders } from './httpRewrites.js';

const isMethodNotAllowed = (status: number, code: unknown) => status === 405 || code === 'COMMON405';
// Where the planned check of 405 is expected to run: among the bad requests of the negative phase.
const phases = ['conventions'];

export const methodOperators: MutationOperator[] = [
  {
    id: 'method-not-allowed-without-allow',
    description: 'a method the path does not have answers 405 COMMON405 without the Allow header',
    quote: { file: 'openapi.yaml', pointer: '/tags/5/description', text: 'A method the path does not support answers `405 COMMON405` with an `Allow` header' },
    phases,
    meantFor: 'method_not_allowed',
    mutation: rewriteResponses(
      (_request, response) => isMethodNotAllowed(response.status, errorCodeOf(response)),
      (response) => withHeaders(response, { allow: undefined }),
    ),
  },
  {
    id: 'method-not-allowed-as-404',
    description: 'a method the path does not have answers 404 COMMON404, as if the path did not exist',
    quote: {
      file: 'openapi.yaml',
      pointer: '/components/schemas/ErrorCode/oneOf/4/description',
      text: 'The path exists but not with this method; `Allow` lists the methods it has.',
    },
    phases,
    meantFor: 'method_not_allowed',
    mutation: rewriteResponses(
      (_request, response) => isMethodNotAllowed(response.status, errorCodeOf(response)),
      (_response, request) => errorAnswer(request, 404, 'COMMON404', 'No such route.'),
    ),
  },
];
