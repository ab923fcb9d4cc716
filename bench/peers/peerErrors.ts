// The error envelope of openapi.yaml (ErrorEnvelope) as the Fastify peer writes it by hand: the
// code's status and default message from the generated code table, the request path, and for
// COMMON001 the failing fields of Fastify's ajv errors (`query.size`, `path.tripPlanId`).
import type { FastifySchemaValidationError } from 'fastify';
import type { components } from '../../generated/openapi.js';
import { errorCodes, type HttpErrorCode } from '../../generated/errorCodes.js';

type ErrorEnvelope = components['schemas']['ErrorEnvelope'];
type FieldError = components['schemas']['FieldError'];

export function errorEnvelope(code: HttpErrorCode, path: string, errors: FieldError[] | null = null, message?: string): ErrorEnvelope {
  const status = errorCodes[code].httpStatus;
  return { success: false, status, data: { timestamp: new Date().toISOString(), code, message: message ?? errorCodes[code].message, path, errors } };
}

/** Where Fastify validated (`querystring`, `params`) as the contract names it (`query`, `path`). */
const prefixes: Record<string, string> = { querystring: 'query', params: 'path' };

/** The failing fields of one Fastify validation error; `input` is what was validated (query or params). */
export function fieldErrors(context: string, validation: FastifySchemaValidationError[], input: Record<string, unknown>): FieldError[] {
  const prefix = prefixes[context] ?? context;
  return validation.map((error) => {
    const missing = error.keyword === 'required' ? String(error.params.missingProperty) : undefined;
    const extra = error.keyword === 'additionalProperties' ? String(error.params.additionalProperty) : undefined;
    const name = missing ?? extra ?? error.instancePath.slice(1);
    const rejected = missing === undefined ? input[name] : null;
    return {
      field: `${prefix}.${name}`.slice(0, 100),
      rejectedValue: typeof rejected === 'string' ? rejected.slice(0, 100) : ((rejected ?? null) as FieldError['rejectedValue']),
      message: (extra !== undefined ? 'is not a known field' : (error.message ?? 'is invalid')).slice(0, 200),
    };
  });
}
