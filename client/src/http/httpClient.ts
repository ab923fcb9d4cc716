// The HTTP client: every operation of openapi.yaml as a typed function, sent with the bearer token,
// retried on 429/503, replayed once after a shared reissue when the access token expired, and the
// cursor-paged lists as async iterables.
import { operationTable } from '../generated/http/operationTable.js';
import {
  bindOperations,
  type OperationId,
  type OperationInputs,
  type OperationResults,
  type Operations,
  type PagedOperationId,
  type Send,
} from '../generated/http/operations.js';
import { pageItems } from './pages.js';
import { requestUrl } from './requestUrl.js';
import type { RetryOptions } from './retryingFetch.js';
import type { AnyInput } from './result.js';
import { sendOperation, type Transport } from './sendOperation.js';
import { createTokenKeeper, type TokenPair, type Tokens } from './tokenKeeper.js';

export interface HttpClientOptions {
  /** where the service is, e.g. `https://trips.example.com` (a path prefix is kept) */
  baseUrl: string;
  /** tokens to start with, e.g. kept from an earlier session */
  tokens?: Tokens;
  /** told of every token pair the server issues (sign-in, reissue), e.g. to keep them */
  onTokens?: (tokens: TokenPair) => void;
  /** default: the global fetch */
  fetch?: typeof globalThis.fetch;
  retry?: RetryOptions;
}

/** The item type of a cursor-paged list operation. */
export type PageItem<K extends PagedOperationId> = Extract<OperationResults[K], { ok: true }>['data'] extends { content: readonly (infer Item)[] }
  ? Item
  : never;

export interface HttpClient {
  /** one function per operation of openapi.yaml */
  readonly operations: Operations;
  /** an operation by its id */
  call: Send;
  /** every item of a cursor-paged list (an operation with `x-paging`), fetching page after page; a page that fails rejects with OperationFailedError */
  pages<K extends PagedOperationId>(operationId: K, input: OperationInputs[K]): AsyncIterable<PageItem<K>>;
  /** the URL of an operation, e.g. where to send a browser for `startOidcSignIn` */
  url<K extends OperationId>(operationId: K, input: OperationInputs[K]): string;
  /** the current access token (after a reissue in flight, if any); rejects when there is none */
  accessToken(): Promise<string>;
  /** a new access token from the refresh token; concurrent callers share one reissueToken request */
  reissue(): Promise<string>;
  /** replaces the tokens (null: signed out) */
  setTokens(tokens: Tokens | null): void;
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const transport: Transport = {
    baseUrl: options.baseUrl,
    // Called unbound, a browser's fetch throws "Illegal invocation".
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    retry: options.retry,
  };
  const send = (operationId: OperationId, input: AnyInput) => sendOperation(transport, tokens, operationId, input);
  const tokens = createTokenKeeper(options.tokens, options.onTokens, (refreshToken) => send('reissueToken', { body: { refreshToken } }));
  // The operation table and the generated types are made from the same spec: each id's answer is its Result type.
  const call = send as Send;
  return {
    operations: bindOperations(call),
    call,
    pages: <K extends PagedOperationId>(operationId: K, input: OperationInputs[K]) => pageItems(send, operationId, input) as AsyncIterable<PageItem<K>>,
    url: (operationId, input) => requestUrl(options.baseUrl, operationTable[operationId], input),
    accessToken: () => tokens.accessToken(),
    reissue: () => tokens.reissue(),
    setTokens: (next) => tokens.set(next),
  };
}
