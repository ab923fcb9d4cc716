// The HTTP half of the client package: client/src/generated/http/, from openapi.yaml. The package is
// published alone, so it gets its own copy of the types and the error codes (the same text as
// generated/openapi.ts and generated/errorCodes.ts) instead of importing the repository's.
import type { JsonObject, OperationFact } from '../../conformance/specModel/index.js';
import type { ErrorCodeFact } from '../errorCodeModel.js';
import { emitErrorCodes } from '../emitErrorCodes.js';
import { emitClientHttpOperations, envelopesOf } from './emitClientHttpOperations.js';
import { emitClientHttpTable } from './emitClientHttpTable.js';

/** The schema of a token pair: the client keeps the pair of every answer whose `data` it is. */
const tokenSchema = 'TokenResponse';

/** Files under client/src/generated/. `openapiTypes`: the text of generated/openapi.ts (openapi-typescript runs once). */
export function emitClientHttp(openapi: JsonObject, operations: OperationFact[], errorCodes: ErrorCodeFact[], openapiTypes: string): Record<string, string> {
  return {
    'http/openapi.ts': openapiTypes,
    'http/errorCodes.ts': emitErrorCodes(errorCodes),
    'http/operationTable.ts': emitClientHttpTable(operations, envelopesOf(openapi, tokenSchema)),
    'http/operations.ts': emitClientHttpOperations(openapi, operations),
  };
}
