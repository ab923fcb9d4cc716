// What rejects where a Result cannot be returned: a page of `pages()` or a reissue that the server
// refused. It carries the Failure, with the server's ErrorResponse.
import type { Failure } from './result.js';

export class OperationFailedError extends Error {
  constructor(
    readonly operationId: string,
    readonly result: Failure,
  ) {
    super(`${operationId} failed with ${result.status}${result.error ? ` ${result.error.code}: ${result.error.message}` : ''}`);
    this.name = 'OperationFailedError';
  }
}
