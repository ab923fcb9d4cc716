// Builds the CommonResponse envelope `{success, status, data}` of every JSON response, and renders
// errors into it. No handler builds an error body by hand.
import type { components } from '../../generated/openapi.js';
import { AppError } from './appError.js';
import { fitErrorResponse } from './errorBodyLimits.js';

type ErrorResponse = components['schemas']['ErrorResponse'];

export function envelope(status: number, data: unknown): { success: boolean; status: number; data: unknown } {
  return { success: status < 400, status, data };
}

export function errorBody(error: AppError, path: string, now = new Date()): ErrorResponse {
  return fitErrorResponse({
    timestamp: now.toISOString(),
    code: error.code,
    message: error.message,
    path,
    errors: error.fieldErrors,
  });
}

export function renderError(error: AppError, path: string): { status: number; body: ReturnType<typeof envelope>; headers: Record<string, string> } {
  return { status: error.status, body: envelope(error.status, errorBody(error, path)), headers: error.headers };
}
