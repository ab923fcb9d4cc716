// The HTTP half of the client package: what client/src/index.ts exports of it.
export { createHttpClient, type HttpClient, type HttpClientOptions, type PageItem } from './httpClient.js';
export { OperationFailedError } from './operationFailedError.js';
export type { ApiError, CallOptions, Failure, Success } from './result.js';
export type { RetryEvent, RetryOptions } from './retryingFetch.js';
export type { TokenPair, Tokens } from './tokenKeeper.js';
export * from '../generated/http/operations.js';
export { operationTable, type OperationEntry, type PagingEntry } from '../generated/http/operationTable.js';
export { errorCodes, type ErrorCode, type HttpErrorCode } from '../generated/http/errorCodes.js';
export type { components, paths } from '../generated/http/openapi.js';
