// What a call answers: a Result, never a thrown HTTP status. A documented success carries the
// envelope's `data`; any error status carries the ErrorResponse the server sent. A call rejects only
// when there is no answer to give (no connection after the retries, an abort, an answer that breaks
// the contract).
import type { HttpErrorCode } from '../generated/http/errorCodes.js';
import type { components } from '../generated/http/openapi.js';

/** An error body (the `data` of an ErrorEnvelope); HTTP answers carry only the codes that have an HTTP status. */
export type ApiError = Omit<components['schemas']['ErrorResponse'], 'code'> & { code: HttpErrorCode };

export interface Success<Status extends number, Data> {
  readonly ok: true;
  readonly status: Status;
  /** the envelope's `data`; the text of a non-JSON answer; undefined for an answer without a body */
  readonly data: Data;
  readonly headers: Headers;
}

export interface Failure {
  readonly ok: false;
  /** any status of 400 and above, documented or not (e.g. 408, or a proxy's 502) */
  readonly status: number;
  /** null when the answer is not an ErrorEnvelope (a 408 without a body, a proxy's HTML page) */
  readonly error: ApiError | null;
  readonly headers: Headers;
}

/** What every operation's input may add to its parameters and body. */
export interface CallOptions {
  /** aborts the request and any wait before a retry; the call then rejects with the signal's reason */
  signal?: AbortSignal;
  /** further request headers, e.g. `X-Request-Id` */
  headers?: Readonly<Record<string, string>>;
}

/** Any operation's input as the runtime reads it: each operation's Input type is one. */
export interface AnyInput extends CallOptions {
  /** path parameters by name */
  path?: object;
  /** query parameters by name */
  query?: object;
  body?: unknown;
}
