// The error codes of CONTRACT.md §2 with their HTTP status and default message. The codes are kept
// from the original service so existing clients keep working.
export const errorCodes = {
  COMMON001: { status: 400, message: 'Request validation failed.' },
  COMMON002: { status: 400, message: 'The request body is not valid JSON.' },
  COMMON403: { status: 403, message: 'This operation needs the ADMIN role.' },
  COMMON404: { status: 404, message: 'No such route.' },
  COMMON405: { status: 405, message: 'Method not allowed on this route.' },
  COMMON413: { status: 413, message: 'The request body is too large.' },
  COMMON429: { status: 429, message: 'Too many requests.' },
  COMMON500: { status: 500, message: 'An unexpected error occurred.' },
  COMMON503: { status: 503, message: 'The service is not ready.' },
  AUTH001: { status: 401, message: 'The access token is invalid.' },
  AUTH002: { status: 401, message: 'The access token has expired.' },
  AUTH004: { status: 401, message: 'The refresh token is not valid any more.' },
  AUTH011: { status: 401, message: 'The Authorization header is missing.' },
  TRIP101: { status: 404, message: 'Trip plan not found.' },
  TRIP103: { status: 404, message: 'Day not found.' },
  TRIP104: { status: 404, message: 'Scheduled place not found.' },
  TRIP106: { status: 409, message: 'The trip plan is not in a state that allows this.' },
  TRIP107: { status: 400, message: 'The planner does not support this region.' },
  CHAT102: { status: 400, message: 'A chat message must be non-blank TEXT.' },
  CHAT301: { status: 404, message: 'Chat room not found.' },
  MEMBER001: { status: 404, message: 'Member not found.' },
  AI002: { status: 500, message: 'Trip plan generation failed.' },
  AI005: { status: 404, message: 'Prompt template not found.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCodes;
