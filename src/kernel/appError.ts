// The one error type of the service. Thrown anywhere; rendered into the envelope by renderError.
// Its code is one of the spec's HTTP error codes (components.schemas.ErrorCode), with their status.
import type { components } from '../../generated/openapi.js';
import { errorCodes, type HttpErrorCode } from '../../generated/errorCodes.js';

export type FieldError = components['schemas']['FieldError'];

export class AppError extends Error {
  readonly code: HttpErrorCode;
  readonly status: number;
  readonly fieldErrors: FieldError[] | null;
  readonly headers: Record<string, string>;

  constructor(code: HttpErrorCode, message?: string, options: { fieldErrors?: FieldError[]; headers?: Record<string, string> } = {}) {
    super(message ?? errorCodes[code].message);
    this.code = code;
    this.status = errorCodes[code].httpStatus;
    this.fieldErrors = options.fieldErrors ?? null;
    this.headers = options.headers ?? {};
  }
}

/** COMMON001 for one field, for business rules the schema cannot express. */
export function invalidField(field: string, rejectedValue: FieldError['rejectedValue'], message: string): AppError {
  return new AppError('COMMON001', 'Request validation failed.', { fieldErrors: [{ field, rejectedValue, message }] });
}
