// What the envelope of a JSON answer says beyond its schema (openapi.yaml, the Conventions of the
// Trips tag and ErrorCode): its `status` repeats the HTTP status (`envelope_status`), an error's
// `code` is one the response lists in `x-error-codes` (`error_code`), and `errors` lists the failing
// fields for a code marked `x-field-errors`, and is null for every other code (`error_fields`).
import { isJsonObject, jsonText, type ResponseFact } from '../specModel/index.js';
import type { PhaseRecorder } from './checks.js';
import type { ProbeResponse } from './httpProbe.js';
import type { SpecIndex } from './specIndex.js';

/** Checks the envelope of a JSON answer. Returns false when a check failed. */
export function checkEnvelope(
  recorder: PhaseRecorder,
  spec: SpecIndex,
  documented: ResponseFact,
  response: ProbeResponse,
  replay: string,
  operationId: string,
): boolean {
  const envelope = response.json;
  if (!isJsonObject(envelope) || !('success' in envelope) || !('status' in envelope)) return true;
  let ok = recorder.check(
    envelope.status === response.status,
    'envelope_status',
    operationId,
    `the envelope's status is ${jsonText(envelope.status)}, the HTTP status ${response.status} (the envelope repeats it)`,
    replay,
  );
  const data = envelope.data;
  if (response.status < 400 || !isJsonObject(data) || typeof data.code !== 'string') return ok;
  const code = data.code;
  if (documented.errorCodes !== null) {
    ok =
      recorder.check(
        documented.errorCodes.includes(code),
        'error_code',
        operationId,
        `status ${response.status} came with code ${code}; this response is documented with ${documented.errorCodes.join(', ')} (x-error-codes)`,
        replay,
      ) && ok;
  }
  const listing = spec.errorCodes.filter((c) => c.fieldErrors).map((c) => c.code);
  // A spec that marks no code says nothing about errors[]: nothing to hold the server to.
  if (listing.length === 0) return ok;
  const errors = data.errors;
  const lists = listing.includes(code);
  const held = lists ? Array.isArray(errors) && errors.length > 0 : errors === null;
  const got = Array.isArray(errors) ? `${errors.length === 0 ? 'an empty list' : `${errors.length} field(s)`}` : jsonText(errors);
  const expected = lists ? 'the failing fields (x-field-errors)' : `null (only ${listing.join(', ')} list fields)`;
  return recorder.check(held, 'error_fields', operationId, `${code}: errors must be ${expected}, got ${got}`, replay) && ok;
}
