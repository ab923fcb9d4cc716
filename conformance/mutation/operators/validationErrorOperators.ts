// Bugs in the `errors` list of a COMMON001 answer, the one part of an error body a client acts on
// field by field.
import type { MutationOperator } from '../operator.js';
import type { ProxyResponse } from '../mutation.js';
import { errorCodeOf, rewriteResponses, withData } from './httpRewrites.js';

/** A mutation of every 400 COMMON001 answer. */
const validationFailure = (rewrite: (response: ProxyResponse) => ProxyResponse | undefined) =>
  rewriteResponses((_request, response) => response.status === 400 && errorCodeOf(response) === 'COMMON001', rewrite);

export const validationErrorOperators: MutationOperator[] = [
  {
    id: 'validation-errors-null',
    description: 'a request that fails its schema answers 400 COMMON001 with errors: null instead of the failing fields',
    quote: { file: 'openapi.yaml', pointer: '/components/responses/BadRequest/description', text: 'every failing field is listed in `errors`' },
    phases: ['robustness'],
    meantFor: 'date_rejected',
    mutation: validationFailure((response) => withData(response, (data) => ({ ...data, errors: null }))),
  },
  {
    id: 'validation-errors-unprefixed',
    description: 'the failing fields of COMMON001 are named without where they sit (`startDate`, not `body.startDate`)',
    quote: {
      file: 'openapi.yaml',
      pointer: '/components/schemas/FieldError/properties/field/description',
      text: 'Where the value sits, e.g. `body.themes[2]`, `query.size`, `path.tripPlanId`.',
    },
    phases: ['robustness'],
    meantFor: 'date_rejected',
    mutation: validationFailure((response) =>
      withData(response, (data) => ({
        ...data,
        errors: Array.isArray(data.errors)
          ? data.errors.map((error: Record<string, unknown>) => ({ ...error, field: String(error.field).replace(/^(body|query|path|header)\./, '') }))
          : data.errors,
      })),
    ),
  },
];
