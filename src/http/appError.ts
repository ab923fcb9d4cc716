// The one error type of the service. Thrown anywhere; rendered into the envelope by renderError.
import type { components } from '../../generated/openapi.js';
import { errorCodes, type ErrorCode } from './errorCodes.js';

export type FieldError = components['schemas']['FieldError'];

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fieldErrors: FieldError[] | null;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message?: string, options: { fieldErrors?: FieldError[]; headers?: Record<string, string> } = {}) {
    super(message ?? errorCodes[code].message);
    this.code = code;
    this.status = errorCodes[code].status;
    this.fieldErrors = options.fieldErrors ?? null;
    this.headers = options.headers ?? {};
  }
}

/** COMMON001 for one field, for business rules the schema cannot express. */
export function invalidField(field: string, rejectedValue: FieldError['rejectedValue'], message: string): AppError {
  return new AppError('COMMON001', 'Request validation failed.', { fieldErrors: [{ field, rejectedValue, message }] });
}
