// One operation from input to Result: the URL and body from the operation table, the bearer token
// on a secured operation, the retries, and, when the server says the access token expired, one
// replay with the token a (shared) reissue gives. A token pair in a success answer is kept.
import type { HttpErrorCode } from '../generated/http/errorCodes.js';
import type { OperationEntry } from '../generated/http/operationTable.js';
import { operationTable } from '../generated/http/operationTable.js';
import type { OperationId } from '../generated/http/operations.js';
import { OperationFailedError } from './operationFailedError.js';
import { readResult } from './readResult.js';
import { requestUrl } from './requestUrl.js';
import type { AnyInput, Failure, Success } from './result.js';
import { retryingFetch, type RetryOptions } from './retryingFetch.js';
import type { TokenKeeper, TokenPair } from './tokenKeeper.js';

/** The code of a 401 whose access token is well-formed but past its expiry: a reissue helps (AUTH001 and AUTH011 it does not). */
const ACCESS_TOKEN_EXPIRED: HttpErrorCode = 'AUTH002';

export type AnyResult = Success<number, unknown> | Failure;

export interface Transport {
  baseUrl: string;
  fetch: typeof globalThis.fetch;
  retry: RetryOptions | undefined;
}

async function exchange(transport: Transport, operationId: OperationId, entry: OperationEntry, input: AnyInput, token: string | undefined): Promise<AnyResult> {
  const headers = new Headers(input.headers);
  if (!headers.has('accept')) headers.set('accept', entry.accept);
  if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
  let body: string | undefined;
  if (entry.jsonBody && input.body !== undefined) {
    body = JSON.stringify(input.body);
    headers.set('content-type', 'application/json');
  }
  const url = requestUrl(transport.baseUrl, entry, input);
  const init: RequestInit = { method: entry.method, headers, body, redirect: entry.redirects ? 'manual' : 'follow' };
  const response = await retryingFetch(transport.fetch, { operationId, method: entry.method, url, init, signal: input.signal }, transport.retry);
  return readResult(operationId, response);
}

const expired = (result: AnyResult): boolean => !result.ok && result.status === 401 && result.error?.code === ACCESS_TOKEN_EXPIRED;

/** The token to replay with, or null when the reissue was refused (the caller gets the first answer). */
function renewed(tokens: TokenKeeper, refused: string): Promise<string | null> {
  return tokens.renewAfter(refused).catch((error: unknown) => {
    if (error instanceof OperationFailedError) return null;
    throw error;
  });
}

export async function sendOperation(transport: Transport, tokens: TokenKeeper, operationId: OperationId, input: AnyInput): Promise<AnyResult> {
  const entry = operationTable[operationId];
  let token: string | undefined;
  if (entry.secured) {
    await tokens.settled();
    token = tokens.current()?.accessToken;
  }
  let result = await exchange(transport, operationId, entry, input, token);
  if (token !== undefined && expired(result) && tokens.current()?.refreshToken) {
    const fresh = await renewed(tokens, token);
    if (fresh !== null) result = await exchange(transport, operationId, entry, input, fresh);
  }
  if (result.ok && entry.issuesTokens) tokens.issued(result.data as TokenPair);
  return result;
}
