// Error bodies are at most 4 KiB whatever the request (openapi.yaml, ErrorResponse and FieldError):
// echoed texts are cut with a marker, rejected values are shown in bounded form, and `errors` is
// shortened until the whole body fits. An unauthenticated client must not be able to make the
// server send back more than it sent, nor make rendering an error expensive.
import type { components } from '../../generated/openapi.js';

type ErrorResponse = components['schemas']['ErrorResponse'];
type FieldError = components['schemas']['FieldError'];

/** The whole HTTP error body, envelope included, in bytes of UTF-8 JSON. */
export const ERROR_BODY_MAX_BYTES = 4096;
/** Ends every text that was cut, so a client can tell it from a real value. */
export const TRUNCATION_MARKER = '...[truncated]';
/** Characters, as documented on ErrorResponse and FieldError in openapi.yaml. */
export const errorTextLimits = { message: 300, path: 256, fieldErrors: 20, field: 100, fieldMessage: 200, rejectedValue: 100 } as const;

// `{"success":false,"status":400,"data":` + `}`: what the envelope adds around the ErrorResponse.
const ENVELOPE_BYTES = 64;

/** `text` when it fits in `max` characters, else its start and the marker, `max` characters in all. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - TRUNCATION_MARKER.length);
  // Never split a surrogate pair: half a character is not valid UTF-16 text.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}${TRUNCATION_MARKER}`;
}

/**
 * The JSON text of `value`, stopping once it is longer than `budget` characters: a huge or deeply
 * nested value costs no more than its first `budget` characters (each level adds a bracket, so the
 * recursion is at most `budget` deep).
 */
function jsonPrefix(value: unknown, budget: number): string {
  let out = '';
  const visit = (node: unknown): void => {
    if (out.length > budget) return;
    if (typeof node === 'string') {
      out += JSON.stringify(node.slice(0, budget + 1));
    } else if (node === null || typeof node !== 'object') {
      out += JSON.stringify(node) ?? 'null';
    } else if (Array.isArray(node)) {
      out += '[';
      for (let i = 0; i < node.length && out.length <= budget; i++) {
        if (i > 0) out += ',';
        visit(node[i]);
      }
      out += ']';
    } else {
      out += '{';
      let first = true;
      for (const key in node) {
        if (out.length > budget) break;
        if (!Object.hasOwn(node, key)) continue;
        out += `${first ? '' : ','}${JSON.stringify(key.slice(0, budget + 1))}:`;
        first = false;
        visit((node as Record<string, unknown>)[key]);
      }
      out += '}';
    }
  };
  visit(value);
  return out;
}

/**
 * A rejected value as FieldError shows it: scalars as they are, a string cut to the limit, an array
 * or object as is when its JSON text fits the limit, else that text's start and the marker.
 */
export function boundedRejectedValue(value: unknown): unknown {
  const max = errorTextLimits.rejectedValue;
  if (typeof value === 'string') return truncateText(value, max);
  if (value === null || typeof value !== 'object') return value;
  const json = jsonPrefix(value, max);
  return json.length <= max ? value : truncateText(json, max);
}

function boundedFieldError(error: FieldError): FieldError {
  return {
    field: truncateText(error.field, errorTextLimits.field),
    rejectedValue: boundedRejectedValue(error.rejectedValue) as FieldError['rejectedValue'],
    message: truncateText(error.message, errorTextLimits.fieldMessage),
  };
}

const utf8Bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** `body` cut down to the documented limits, small enough for a 4 KiB envelope. */
export function fitErrorResponse(body: ErrorResponse): ErrorResponse {
  const all = body.errors;
  const total = all?.length ?? 0;
  const build = (listed: number): ErrorResponse => {
    const note = all && listed < total ? ` (${total} problems; the first ${listed} are listed)` : '';
    return {
      timestamp: body.timestamp,
      code: body.code,
      message: `${truncateText(body.message, errorTextLimits.message - note.length)}${note}`,
      path: truncateText(body.path, errorTextLimits.path),
      errors: all ? all.slice(0, listed).map(boundedFieldError) : null,
    };
  };
  let listed = Math.min(total, errorTextLimits.fieldErrors);
  let fitted = build(listed);
  // Twenty errors of plain text fit; text JSON must escape (up to six bytes a character) may not, so
  // errors are dropped from the end until the body fits. Without any, message and path alone do.
  while (listed > 0 && utf8Bytes(fitted) > ERROR_BODY_MAX_BYTES - ENVELOPE_BYTES) fitted = build(--listed);
  return fitted;
}
