// One request, sent again (a bounded number of times) when the server says to come back later
// (429, 503: nothing of the request was done, openapi.yaml Conventions), or when no answer came and
// the method is one that may be repeated. The waits honour Retry-After and end with the caller's signal.
import { abortableWait } from './abortableWait.js';
import { retryDelayMs } from './retryDelay.js';

export interface RetryOptions {
  /** tries in all, the first included (default 3; 1: never retry) */
  attempts?: number;
  /** the longest wait before a retry, whatever Retry-After asks (default 10 000) */
  maxDelayMs?: number;
  /** told of each retry, before its wait */
  onRetry?: (event: RetryEvent) => void;
}

export interface RetryEvent {
  operationId: string;
  /** the attempt that is retried, 1 for the first */
  attempt: number;
  /** 429 or 503; null when no answer came */
  status: number | null;
  /** the answer's Retry-After, as sent */
  retryAfter: string | null;
  /** how long the client waits before the next attempt */
  delayMs: number;
}

export const DEFAULT_ATTEMPTS = 3;
export const DEFAULT_MAX_DELAY_MS = 10_000;

const retriedStatuses = new Set([429, 503]);
/** Methods whose request may be sent again when no answer came: the server may have done it already. */
const repeatable = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

export interface OutgoingRequest {
  operationId: string;
  method: string;
  url: string;
  init: RequestInit;
  signal: AbortSignal | undefined;
}

function noAnswer(request: OutgoingRequest, attempts: number, error: unknown): Error {
  const why = error instanceof Error ? error.message : String(error);
  const repeat = repeatable.has(request.method) ? '' : ` (a ${request.method} is not sent again: the server may have acted on it)`;
  return new Error(`${request.operationId}: no answer from ${request.method} ${request.url} after ${attempts} attempt(s)${repeat}: ${why}`, { cause: error });
}

export async function retryingFetch(fetch: typeof globalThis.fetch, request: OutgoingRequest, options: RetryOptions = {}): Promise<Response> {
  const attempts = Math.max(1, options.attempts ?? DEFAULT_ATTEMPTS);
  const maxDelayMs = Math.max(0, options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS);
  const { signal } = request;
  for (let attempt = 1; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(request.url, { ...request.init, signal });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (attempt >= attempts || !repeatable.has(request.method)) throw noAnswer(request, attempt, error);
      await pause({ operationId: request.operationId, attempt, status: null, retryAfter: null }, maxDelayMs, options, signal);
      continue;
    }
    if (!retriedStatuses.has(response.status) || attempt >= attempts) return response;
    // Read to the end, so the connection can serve the next attempt.
    await response.arrayBuffer().catch(() => undefined);
    const retryAfter = response.headers.get('retry-after');
    await pause({ operationId: request.operationId, attempt, status: response.status, retryAfter }, maxDelayMs, options, signal);
  }
}

async function pause(event: Omit<RetryEvent, 'delayMs'>, maxDelayMs: number, options: RetryOptions, signal: AbortSignal | undefined): Promise<void> {
  const delayMs = retryDelayMs(event.attempt, event.retryAfter, maxDelayMs, Date.now());
  options.onRetry?.({ ...event, delayMs });
  await abortableWait(delayMs, signal);
}
