// generated/errorCodes.ts: the error code table (code → HTTP status, STOMP carriers, default
// message) and the code types the server uses, from `components.schemas.ErrorCode`. A code that is
// not in the spec does not compile anywhere a code is written (AppError, STOMP ERROR frames, the
// errors channel).
import type { ErrorCodeFact } from './errorCodeModel.js';
import { GENERATED_HEADER, propertyKey } from './naming.js';

const union = (codes: string[]): string => (codes.length ? codes.map((c) => JSON.stringify(c)).join(' | ') : 'never');

/** `typesModule`: the generated module whose `components['schemas']` holds ErrorCode (beside the output). */
export function emitErrorCodes(facts: ErrorCodeFact[], typesModule = './openapi.js'): string {
  const rows = facts.map(
    (f) =>
      `  /** ${f.description.replace(/\s+/g, ' ').replace(/\*\//g, '*\\/')} */\n` +
      `  ${propertyKey(f.code)}: { httpStatus: ${f.httpStatus ?? 'null'}, stomp: [${f.stomp.map((s) => JSON.stringify(s)).join(', ')}], message: ${JSON.stringify(f.message)} },`,
  );
  return `${GENERATED_HEADER}
import type { components } from '${typesModule}';

/** Every error code of the API (specs/openapi.yaml, components.schemas.ErrorCode). */
export type ErrorCode = components['schemas']['ErrorCode'];

export interface ErrorCodeFacts {
  /** the status of the HTTP responses carrying the code; null for STOMP-only codes */
  readonly httpStatus: number | null;
  /** where STOMP carries it: an ERROR frame's \`error-code\` header, an ErrorResponse on the errors channel */
  readonly stomp: readonly ('error-frame' | 'errors-channel')[];
  /** the message sent when nothing more specific is said */
  readonly message: string;
}

export const errorCodes = {
${rows.join('\n')}
} as const satisfies Record<ErrorCode, ErrorCodeFacts>;

/** Codes an HTTP error response carries (they have an HTTP status). */
export type HttpErrorCode = ${union(facts.filter((f) => f.httpStatus !== null).map((f) => f.code))};
/** Codes of STOMP ERROR frames (the \`error-code\` header). */
export type StompErrorFrameCode = ${union(facts.filter((f) => f.stomp.includes('error-frame')).map((f) => f.code))};
/** Codes of the ErrorResponses sent on the STOMP errors channel. */
export type ErrorsChannelCode = ${union(facts.filter((f) => f.stomp.includes('errors-channel')).map((f) => f.code))};
`;
}
